import { PACING_TOLERANCE, type PacingStatus } from '@/domain/pacing';
import { Badge, type BadgeTone } from '@/app/(console)/_components/ui/badge';
import { cn } from '@/app/(console)/_lib/cn';

/** A flight's pacing as the API answers it (the flight object and the delivery report's rows). */
export interface FlightPacing {
  delivered: number;
  expected_to_date: number;
  ratio: number | null;
  status: PacingStatus;
}

const TOLERANCE = `${Math.round(PACING_TOLERANCE * 100)}%`;

/** Each status in words: the badge never relies on its colour alone. */
export const PACING_LABELS: Record<PacingStatus, string> = {
  on_track: 'On track',
  behind: 'Behind',
  ahead: 'Ahead',
  goal_reached: 'Goal reached',
};

/** What each status means, against even delivery of the goal over the flight's dates (domain/pacing.ts). */
export const PACING_HELP: Record<PacingStatus, string> = {
  on_track: `Delivered within ${TOLERANCE} of an even delivery of the goal so far.`,
  behind: `Delivered more than ${TOLERANCE} below an even delivery of the goal so far.`,
  ahead: `Delivered more than ${TOLERANCE} above an even delivery of the goal so far.`,
  goal_reached: 'Delivered the whole impression goal.',
};

const TONES: Record<PacingStatus, BadgeTone> = {
  on_track: 'success',
  behind: 'warning',
  ahead: 'info',
  goal_reached: 'accent',
};

/** 0.964 → "96%"; a little above nothing is "under 1%", not "0%". */
export function formatRatio(ratio: number): string {
  if (ratio > 0 && ratio < 0.005) return 'under 1%';
  return `${Math.round(ratio * 100).toLocaleString()}%`;
}

/**
 * "Behind · 45% of even pace", "On track · nothing expected yet", "Goal reached"; `compact` (a list's
 * row): "Behind · 45%", "On track · not started".
 */
export function pacingText(pacing: FlightPacing, { compact = false } = {}): string {
  const label = PACING_LABELS[pacing.status];
  if (pacing.status === 'goal_reached') return label;
  // Nothing is expected before the flight starts.
  if (pacing.ratio === null) return `${label} · ${compact ? 'not started' : 'nothing expected yet'}`;
  return `${label} · ${formatRatio(pacing.ratio)}${compact ? '' : ' of even pace'}`;
}

/** One sentence for the reader: what was delivered against what even delivery expects by now. */
export function pacingSentence(pacing: FlightPacing, goal: number): string {
  const delivered = pacing.delivered.toLocaleString();
  if (pacing.status === 'goal_reached') return `${delivered} of the ${goal.toLocaleString()} goal delivered: the goal is reached.`;
  if (pacing.ratio === null) return `Nothing is expected yet: the flight has not started. ${delivered} delivered so far.`;
  return `${delivered} delivered where even delivery of the ${goal.toLocaleString()} goal expects ${pacing.expected_to_date.toLocaleString()} by now (${formatRatio(pacing.ratio)}). ${PACING_HELP[pacing.status]}`;
}

/**
 * The status in its tone with the ratio (delivered ÷ expected by now), and what it means on hover;
 * `compact` leaves out "of even pace" (a list's row, where the title says it).
 */
export function PacingBadge({ pacing, compact = false, className }: { pacing: FlightPacing; compact?: boolean; className?: string }) {
  const help =
    pacing.ratio === null
      ? pacing.status === 'goal_reached'
        ? PACING_HELP.goal_reached
        : 'Nothing is expected before the flight starts.'
      : `${PACING_HELP[pacing.status]} Delivered ${formatRatio(pacing.ratio)} of what even delivery expects by now.`;
  return (
    <Badge tone={TONES[pacing.status]} className={cn('tabular-nums', className)} title={help} data-testid="pacing-badge">
      {pacingText(pacing, { compact })}
    </Badge>
  );
}
