'use client';

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One bucket of the delivery chart: its tick label, the counts, and the latencies (null without deliveries). */
export type DeliveryPoint = Record<string, string | number | null>;

/** A latency tick on one line: "850\u00a0ms", "1.2\u00a0s" (a no-break space, so the label never wraps). */
function formatMsTick(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}\u00a0s` : `${ms}\u00a0ms`;
}

/** recharts draws its tooltip white with a grey border: the console's surface and border instead. */
const TOOLTIP_BOX = { backgroundColor: 'var(--color-white)', borderColor: 'var(--color-slate-200)' };

/**
 * Deliveries (stacked bars) and p50 / p95 latency (lines with points, so one bucket still draws). Its
 * colours are the palette's variables, not hex values, so it turns dark with the rest (console.css).
 */
export function DeliveryChart({ data }: { data: DeliveryPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} title="Webhook deliveries and latency over time">
        <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 11, fill: 'var(--color-slate-600)' }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--color-slate-600)' }} width={40} />
        <YAxis yAxisId="ms" orientation="right" tick={{ fontSize: 11, fill: 'var(--color-slate-600)' }} width={64} tickFormatter={formatMsTick} />
        <Tooltip contentStyle={TOOLTIP_BOX} itemStyle={{ color: 'var(--color-slate-800)' }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="count" dataKey="Succeeded" stackId="d" fill="var(--color-emerald-600)" isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="Failed" stackId="d" fill="var(--color-red-600)" isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="Pending" stackId="d" fill="var(--color-amber-600)" isAnimationActive={false} />
        <Line
          yAxisId="ms"
          type="monotone"
          dataKey="p50 latency (ms)"
          stroke="var(--color-indigo-600)"
          dot={{ r: 3, fill: 'var(--color-indigo-600)' }}
          connectNulls
          isAnimationActive={false}
        />
        <Line
          yAxisId="ms"
          type="monotone"
          dataKey="p95 latency (ms)"
          stroke="var(--color-violet-600)"
          strokeDasharray="4 3"
          dot={{ r: 3, fill: 'var(--color-violet-600)' }}
          connectNulls
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
