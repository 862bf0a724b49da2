'use client';

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type LegendPayload,
} from 'recharts';

/** One UTC day of the flight: its tick, both counts, and the running totals (null on days still to come). */
export interface FlightDay {
  day: string;
  label: string;
  tracked: number | null;
  reported: number | null;
  deliveredToDate: number | null;
  expectedToDate: number | null;
}

/** recharts draws its tooltip white with a grey border: the console's surface and border instead (as the overview's chart). */
const TOOLTIP_BOX = { backgroundColor: 'var(--color-white)', borderColor: 'var(--color-slate-200)' };
const TICK = { fontSize: 11, fill: 'var(--color-slate-600)' };

/** 1200 → "1.2k", 2250 → "2.25k", 2500000 → "2.5M": the y axis stays narrow on a phone. */
function compact(value: number): string {
  if (value >= 1_000_000) return `${Number((value / 1_000_000).toFixed(2))}M`;
  if (value >= 1_000) return `${Number((value / 1_000).toFixed(2))}k`;
  return String(value);
}

/** The legend in the order the series are drawn (recharts sorts it by name otherwise). */
const inOrder = (keys: string[]) => (item: LegendPayload) => keys.indexOf(String(item.dataKey));

const count = (value: unknown) => (typeof value === 'number' ? value.toLocaleString() : 'not reported');

/**
 * Daily impressions: tracked and reported as bars side by side. Colours are the palette's
 * variables, so the chart turns dark with the rest (console.css); the legend names both counts.
 */
export function DailyImpressionsChart({ data }: { data: FlightDay[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} barGap={1} barCategoryGap="20%">
        <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" vertical={false} />
        <XAxis dataKey="label" tick={TICK} interval="preserveStartEnd" minTickGap={16} />
        <YAxis allowDecimals={false} tick={TICK} width={52} tickFormatter={compact} />
        <Tooltip
          contentStyle={TOOLTIP_BOX}
          itemStyle={{ color: 'var(--color-slate-800)' }}
          formatter={count}
          cursor={{ fill: 'var(--color-slate-100)' }}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={inOrder(['tracked', 'reported'])} />
        <Bar dataKey="tracked" name="Tracked" fill="var(--color-indigo-600)" isAnimationActive={false} />
        <Bar dataKey="reported" name="Reported" fill="var(--color-amber-600)" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/**
 * Pacing: tracked impressions delivered to date (a solid line) against an even delivery of the goal
 * over the flight's dates (dashed), which reaches the goal (a reference line) on its last day.
 */
export function PacingChart({ data, goal }: { data: FlightDay[]; goal: number }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 16, right: 8, bottom: 0, left: -8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" vertical={false} />
        <XAxis dataKey="label" tick={TICK} interval="preserveStartEnd" minTickGap={16} />
        <YAxis allowDecimals={false} tick={TICK} width={52} tickFormatter={compact} domain={[0, (max: number) => Math.max(max, goal)]} />
        <Tooltip
          contentStyle={TOOLTIP_BOX}
          itemStyle={{ color: 'var(--color-slate-800)' }}
          formatter={(v) => (typeof v === 'number' ? v.toLocaleString() : '—')}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={inOrder(['deliveredToDate', 'expectedToDate'])} />
        <ReferenceLine
          y={goal}
          stroke="var(--color-emerald-600)"
          strokeDasharray="2 2"
          label={{ value: `Goal ${goal.toLocaleString()}`, position: 'insideTopLeft', fontSize: 11, fill: 'var(--color-slate-700)' }}
        />
        <Line
          type="linear"
          dataKey="expectedToDate"
          name="Even delivery"
          stroke="var(--color-slate-500)"
          strokeDasharray="5 4"
          dot={false}
          isAnimationActive={false}
        />
        <Line
          type="linear"
          dataKey="deliveredToDate"
          name="Delivered (tracked)"
          stroke="var(--color-indigo-600)"
          strokeWidth={2}
          dot={{ r: 2, fill: 'var(--color-indigo-600)' }}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
