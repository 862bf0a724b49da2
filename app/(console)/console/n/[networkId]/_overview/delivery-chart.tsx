'use client';

import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One bucket of the delivery chart: its tick label, the counts, and the latencies (null without deliveries). */
export type DeliveryPoint = Record<string, string | number | null>;

/** A latency tick on one line: "850\u00a0ms", "1.2\u00a0s" (a no-break space, so the label never wraps). */
function formatMsTick(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}\u00a0s` : `${ms}\u00a0ms`;
}

/** Deliveries (stacked bars) and p50 / p95 latency (lines with points, so one bucket still draws). */
export function DeliveryChart({ data }: { data: DeliveryPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} title="Webhook deliveries and latency over time">
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 11, fill: '#475569' }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 11, fill: '#475569' }} width={40} />
        <YAxis yAxisId="ms" orientation="right" tick={{ fontSize: 11, fill: '#475569' }} width={64} tickFormatter={formatMsTick} />
        <Tooltip itemStyle={{ color: '#1e293b' }} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="count" dataKey="Succeeded" stackId="d" fill="#059669" isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="Failed" stackId="d" fill="#dc2626" isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="Pending" stackId="d" fill="#d97706" isAnimationActive={false} />
        <Line
          yAxisId="ms"
          type="monotone"
          dataKey="p50 latency (ms)"
          stroke="#4f46e5"
          dot={{ r: 3, fill: '#4f46e5' }}
          connectNulls
          isAnimationActive={false}
        />
        <Line
          yAxisId="ms"
          type="monotone"
          dataKey="p95 latency (ms)"
          stroke="#7c3aed"
          strokeDasharray="4 3"
          dot={{ r: 3, fill: '#7c3aed' }}
          connectNulls
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
