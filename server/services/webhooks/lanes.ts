/**
 * Fair delivery: one slow or hanging endpoint must not take every worker slot.
 *
 * Each worker process admits at most `endpointConcurrency()` attempts per subscription at a time.
 * A job beyond that is not attempted: its job is added again (same key, so still one per
 * delivery) and this one ends at once, freeing the slot:
 *
 * - while the subscription's attempts are young (the oldest in flight started less than
 *   SLOW_AFTER_MS ago, and the last attempt to end was quick), it is a busy, healthy endpoint: the
 *   job comes back in 100–200 ms;
 * - otherwise the endpoint is slow (an attempt in flight for over SLOW_AFTER_MS, or its last
 *   attempt to end, within SLOW_FOR_MS, was slow or got no response): the job goes into one of
 *   the subscription's lanes, named graphile-worker queues `webhook:<subscription id>:<lane>`
 *   that run one job at a time. So a slow endpoint's backlog waits in its lanes — at most
 *   `endpointConcurrency()` of its jobs can be taken at once — instead of being picked up and put
 *   back over and over.
 *
 * Healthy endpoints' jobs never enter a lane and keep the worker's full batch throughput.
 */
export function endpointConcurrency(): number {
  const n = Number(process.env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 8);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : 8;
}

/**
 * An attempt that takes longer than this (or fails without a response) marks its endpoint slow.
 * Well above a healthy endpoint's latency on a busy machine, so that load alone does not send a
 * healthy endpoint's deliveries into lanes (which run one at a time).
 */
export const SLOW_AFTER_MS = 2_000;
/**
 * How long an endpoint stays marked slow after a slow attempt, unless a quick answer comes first.
 * A quick answer clears the mark: an endpoint that times out now and then (a flaky one, not a
 * hanging one) would otherwise spend the minute after each time-out with its backlog in lanes,
 * which graphile-worker serves one job per lane per 2 s poll. The durability test's receiver
 * (5 % of attempts left hanging past a 1 s time-out) drained at ~14 attempts/s that way.
 */
const SLOW_FOR_MS = 60_000;

/** Prefix of every delivery lane's queue name (release-stale.ts unlocks lanes a killed worker held). */
export const LANE_PREFIX = 'webhook:';

/** The lane of a delivery: the first 32 bits of its (random, v4) id modulo the lanes. */
export function deliveryQueueName(webhookId: string, deliveryId: string, lanes = endpointConcurrency()): string {
  return `${LANE_PREFIX}${webhookId}:${Number.parseInt(deliveryId.slice(0, 8), 16) % lanes}`;
}

interface EndpointState {
  /** Start times (epoch ms) of this process's attempts in flight. */
  inFlight: Set<{ startedAt: number }>;
  slowUntil: number;
}

export type Admission = { admitted: true; done: (outcome: { latencyMs: number; responded: boolean }) => void } | { admitted: false; queueName: string | null; runAt: Date };

const endpoints = new Map<string, EndpointState>();

/** Admit one attempt of `deliveryId` to `webhookId` now, or say where and when its job goes instead. */
export function admitAttempt(webhookId: string, deliveryId: string, now = Date.now()): Admission {
  let state = endpoints.get(webhookId);
  if (!state) endpoints.set(webhookId, (state = { inFlight: new Set(), slowUntil: 0 }));
  const limit = endpointConcurrency();
  if (state.inFlight.size < limit) {
    const entry = { startedAt: now };
    state.inFlight.add(entry);
    const s = state;
    return {
      admitted: true,
      done: ({ latencyMs, responded }) => {
        s.inFlight.delete(entry);
        s.slowUntil = !responded || latencyMs > SLOW_AFTER_MS ? Date.now() + SLOW_FOR_MS : 0;
        if (s.inFlight.size === 0 && s.slowUntil < Date.now()) endpoints.delete(webhookId);
      },
    };
  }
  const oldest = Math.min(...[...state.inFlight].map((e) => e.startedAt));
  const slow = state.slowUntil > now || now - oldest > SLOW_AFTER_MS;
  if (slow) return { admitted: false, queueName: deliveryQueueName(webhookId, deliveryId, limit), runAt: new Date(now + 1_000) };
  return { admitted: false, queueName: null, runAt: new Date(now + 100 + Math.random() * 100) };
}
