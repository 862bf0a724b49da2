import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { Database, Queryable } from '@/db/client';
import { flightPacingAlerts, flights, offers, trackingDaily } from '@/db/schema';
import { flightPacing } from '@/domain/pacing';
import { logger } from '@/server/logger';
import { recordEvent } from '@/server/services/events/record-event';
import { deliveredByFlight } from '@/server/services/reports/flight-delivered';
import { DAY_MS, utcDay } from '@/server/services/tracking/hit-rules';

/*
 * The daily pacing check (docs/measurement.md, "Pacing events"): cron `check-flight-pacing`.
 *
 * Which flights: those with an impression goal, not deleted, that have started and have not been
 * over for more than ENDED_GRACE_MS. An ended flight is still looked at for a day so that a goal
 * reached in its last hours (after the previous day's check) is told; it is never underdelivering.
 * A scheduled flight is looked at from its start.
 *
 * Once: the alert row (flight_pacing_alerts) and the event are written in one transaction, the row
 * `insert … on conflict do nothing returning` and the event only for the rows it returned. Two
 * checks at once: the second's insert waits for the first's commit, then inserts nothing. A crash
 * before the commit leaves neither, and the next run sends it. So the check may run any number of
 * times a day.
 */

/** How long after its end a flight is still checked for its goal. */
export const ENDED_GRACE_MS = DAY_MS;
/** The flights of one network checked in one turn; the networks take turns until each is through. */
export const FLIGHTS_PER_BATCH = 100;

type Candidate = { id: string; campaignId: string; goal: number; startsAt: Date; endsAt: Date };
type Alert = { flight: Candidate; kind: 'goal_reached' | 'underdelivering'; pacing: ReturnType<typeof flightPacing> };

/** The flights the check looks at, at `now`. */
function checked(now: number) {
  return and(
    isNotNull(flights.impressionGoal),
    isNull(flights.deletedAt),
    lte(flights.startsAt, new Date(now)),
    gt(flights.endsAt, new Date(now - ENDED_GRACE_MS)),
  );
}

/**
 * Cron (`check-flight-pacing`, daily): `flight.goal_reached` once per flight when its tracked
 * impressions reach the goal; `flight.underdelivering` at most once per flight per UTC day while it
 * is live and `behind` (domain/pacing.ts). Bounded per network: the networks with flights to check
 * take turns, each checking at most `perBatch` of its flights (in id order) per turn, so a network
 * with thousands of flights delays no other's by more than one batch. Every statement but the first
 * (which networks have flights to check) names its network. A network whose check fails is left
 * for the next run, the others go on, and the run then throws (the job is retried). Returns how many
 * events were sent.
 */
export async function checkFlightPacing({
  db,
  perBatch = FLIGHTS_PER_BATCH,
}: {
  db: Database;
  perBatch?: number;
}): Promise<{ goalReached: number; underdelivering: number }> {
  const now = Date.now();
  const due = await db.selectDistinct({ networkId: flights.networkId }).from(flights).where(checked(now)).orderBy(asc(flights.networkId));
  const sent = { goalReached: 0, underdelivering: 0 };
  const failed: string[] = [];
  let turn = due.map(({ networkId }) => ({ networkId, after: '' }));
  while (turn.length > 0) {
    const next: typeof turn = [];
    for (const { networkId, after } of turn) {
      try {
        const batch = await flightsToCheck({ db, networkId, after, now, perBatch });
        const alerts = await alertsOf({ db, networkId, batch, now });
        if (alerts.length > 0) {
          const made = await sendAlerts({ db, networkId, alerts, day: utcDay(now) });
          sent.goalReached += made.goalReached;
          sent.underdelivering += made.underdelivering;
        }
        if (batch.length === perBatch) next.push({ networkId, after: batch.at(-1)!.id });
      } catch (error) {
        // One network's failure stops only its own turns; the job fails at the end and is retried (sending nothing twice).
        logger.error({ err: error, networkId }, 'pacing check failed for a network');
        failed.push(networkId);
      }
    }
    turn = next;
  }
  if (failed.length > 0) throw new Error(`The pacing check failed for ${failed.length} network(s): ${failed.join(', ')}.`);
  return sent;
}

/** The network's next flights to check after `after`, in id order; those whose goal was told are done for good. */
async function flightsToCheck({
  db,
  networkId,
  after,
  now,
  perBatch,
}: {
  db: Database;
  networkId: string;
  after: string;
  now: number;
  perBatch: number;
}): Promise<Candidate[]> {
  const a = flightPacingAlerts;
  const rows = await db
    .select({ id: flights.id, campaignId: flights.campaignId, goal: flights.impressionGoal, startsAt: flights.startsAt, endsAt: flights.endsAt })
    .from(flights)
    .where(
      and(
        eq(flights.networkId, networkId),
        gt(flights.id, after),
        checked(now),
        notExists(
          db
            .select({ one: sql`1` })
            .from(a)
            .where(and(eq(a.networkId, networkId), eq(a.flightId, flights.id), eq(a.kind, 'goal_reached'))),
        ),
      ),
    )
    .orderBy(asc(flights.id))
    .limit(perBatch);
  return rows.map((r) => ({ ...r, goal: r.goal! }));
}

/** What each flight's pacing now calls for: its goal reached, or behind while live. */
async function alertsOf({ db, networkId, batch, now }: { db: Queryable; networkId: string; batch: Candidate[]; now: number }): Promise<Alert[]> {
  const delivered = await deliveredByFlight({ db, networkId, flightIds: batch.map((f) => f.id) });
  const alerts: Alert[] = [];
  for (const flight of batch) {
    const pacing = flightPacing({
      goal: flight.goal,
      startsAt: flight.startsAt,
      endsAt: flight.endsAt,
      delivered: delivered.get(flight.id) ?? 0,
      now,
    });
    const live = now < flight.endsAt.getTime();
    if (pacing.status === 'goal_reached') alerts.push({ flight, kind: 'goal_reached', pacing });
    else if (pacing.status === 'behind' && live) alerts.push({ flight, kind: 'underdelivering', pacing });
  }
  return alerts;
}

/** The alert rows and their events, in one transaction: an event only for a row this insert made. */
async function sendAlerts({
  db,
  networkId,
  alerts,
  day,
}: {
  db: Database;
  networkId: string;
  alerts: Alert[];
  day: string;
}): Promise<{ goalReached: number; underdelivering: number }> {
  // In flight id order (the batch's): two checks at once take the rows' locks in the same order.
  return db.transaction(async (tx) => {
    const made = await tx
      .insert(flightPacingAlerts)
      .values(alerts.map((a) => ({ networkId, flightId: a.flight.id, kind: a.kind, day })))
      .onConflictDoNothing()
      .returning({ flightId: flightPacingAlerts.flightId, kind: flightPacingAlerts.kind });
    const isNew = new Set(made.map((m) => `${m.kind} ${m.flightId}`));
    const fresh = alerts.filter((a) => isNew.has(`${a.kind} ${a.flight.id}`));
    const reachedOn = await dayGoalReached({ tx, networkId, flights: fresh.filter((a) => a.kind === 'goal_reached').map((a) => a.flight) });
    for (const { flight, kind, pacing } of fresh) {
      const common = { flight_id: flight.id, campaign_id: flight.campaignId, goal: flight.goal, delivered: pacing.delivered };
      if (kind === 'goal_reached') {
        await recordEvent({ tx, networkId, type: 'flight.goal_reached', data: { ...common, reached_on: reachedOn.get(flight.id) ?? day } });
      } else {
        await recordEvent({
          tx,
          networkId,
          type: 'flight.underdelivering',
          data: {
            ...common,
            expected_to_date: pacing.expectedToDate,
            ratio: pacing.ratio!,
            starts_at: flight.startsAt.toISOString(),
            ends_at: flight.endsAt.toISOString(),
            day,
          },
        });
      }
    }
    return {
      goalReached: fresh.filter((a) => a.kind === 'goal_reached').length,
      underdelivering: fresh.filter((a) => a.kind === 'underdelivering').length,
    };
  });
}

/** Per flight, the first UTC day on which its tracked impressions, added up day by day, reached its goal (from the daily rollups). */
async function dayGoalReached({
  tx,
  networkId,
  flights: reached,
}: {
  tx: Queryable;
  networkId: string;
  flights: Candidate[];
}): Promise<Map<string, string>> {
  const days = new Map<string, string>();
  if (reached.length === 0) return days;
  const rows = await tx
    .select({ flightId: offers.flightId, day: trackingDaily.day, impressions: sql<string>`sum(${trackingDaily.impressions})` })
    .from(trackingDaily)
    .innerJoin(offers, and(eq(offers.networkId, trackingDaily.networkId), eq(offers.id, trackingDaily.offerId)))
    .where(
      and(
        eq(trackingDaily.networkId, networkId),
        eq(offers.networkId, networkId),
        inArray(
          offers.flightId,
          reached.map((f) => f.id),
        ),
      ),
    )
    .groupBy(offers.flightId, trackingDaily.day)
    .orderBy(offers.flightId, trackingDaily.day);
  const goals = new Map(reached.map((f) => [f.id, f.goal]));
  const running = new Map<string, number>();
  for (const row of rows) {
    const id = row.flightId!;
    const total = (running.get(id) ?? 0) + Number(row.impressions);
    running.set(id, total);
    if (!days.has(id) && total >= goals.get(id)!) days.set(id, row.day);
  }
  return days;
}
