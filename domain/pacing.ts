/**
 * A flight's pacing (docs/measurement.md, "Pacing"): how far its delivered impressions are from an
 * even delivery of its goal over its dates. Pure, so that the reports, the flight object, the daily
 * pacing check and the console's chart all say the same thing.
 */

export const PACING_STATUSES = ['on_track', 'behind', 'ahead', 'goal_reached'] as const;
export type PacingStatus = (typeof PACING_STATUSES)[number];

/** Delivered within this fraction of the expected count either way is on track (0.1: 90 %–110 %). */
export const PACING_TOLERANCE = 0.1;

/** What pacing counts as delivered: this service's tracked impressions (host reports are shown beside them, not added). */
export const PACING_BASIS = 'tracked' as const;

export interface Pacing {
  /** Tracked impressions of the flight's offers, over its whole life so far. */
  delivered: number;
  /** The goal × the share of the flight's time elapsed (0 before it starts, the goal once it has ended), rounded. */
  expectedToDate: number;
  /** delivered ÷ expectedToDate; null while nothing is expected yet. */
  ratio: number | null;
  status: PacingStatus;
}

/**
 * goal_reached once delivered ≥ goal; otherwise, against even delivery: behind below
 * 1 − PACING_TOLERANCE of the expected count, ahead above 1 + PACING_TOLERANCE, else on_track
 * (also before the flight starts, when nothing is expected).
 */
export function flightPacing({
  goal,
  startsAt,
  endsAt,
  delivered,
  now,
}: {
  goal: number;
  startsAt: Date;
  endsAt: Date;
  delivered: number;
  now: number;
}): Pacing {
  const span = endsAt.getTime() - startsAt.getTime();
  const elapsed = span > 0 ? Math.min(1, Math.max(0, (now - startsAt.getTime()) / span)) : 1;
  const expectedToDate = Math.round(goal * elapsed);
  const ratio = expectedToDate > 0 ? delivered / expectedToDate : null;
  return { delivered, expectedToDate, ratio, status: pacingStatus({ goal, delivered, ratio }) };
}

function pacingStatus({ goal, delivered, ratio }: { goal: number; delivered: number; ratio: number | null }): PacingStatus {
  if (delivered >= goal) return 'goal_reached';
  if (ratio === null) return 'on_track';
  if (ratio < 1 - PACING_TOLERANCE) return 'behind';
  return ratio > 1 + PACING_TOLERANCE ? 'ahead' : 'on_track';
}
