import { config } from '@/server/config';
import { networkSlots } from '@/server/services/network-share';

/**
 * Fair delivery: one slow or hanging endpoint — or one network with many of them — must not take
 * every worker slot.
 *
 * Each worker process admits at most `networkSlots(WORKER_CONCURRENCY)` attempts per network
 * (WORKER_NETWORK_SHARE, server/services/network-share.ts) and `endpointConcurrency()` per
 * subscription at a time. A job beyond either is not attempted: its job is added again (same key,
 * so still one per delivery) and this one ends at once, freeing the slot:
 *
 * - while the subscription's attempts are young (the oldest in flight started less than
 *   SLOW_AFTER_MS ago, and the last attempt to end was quick) — for a network: while any of its
 *   attempts in flight is younger than that — it is busy and healthy: the job comes back in
 *   100–200 ms (later, up to 1–2 s, the longer none of its attempts has started or ended), or, when its attempts have been ending, first waits in this process up to
 *   QUICK_WAIT_MS for one of them to end (admitAttemptSoon);
 * - otherwise it is slow (a subscription: an attempt in flight for over SLOW_AFTER_MS, or its last
 *   attempt to end, within SLOW_FOR_MS, was slow or got no response; a network: every attempt
 *   holding its share has run past SLOW_AFTER_MS): the job goes into one of its lanes, named
 *   graphile-worker queues `webhook:<network or subscription id>:<lane>` that run one job at a
 *   time. So a slow backlog waits in its lanes — at most as many of its jobs as it has lanes can
 *   be taken at once — instead of being picked up and put back over and over.
 *
 * Healthy endpoints' jobs never enter a lane and keep the worker's full batch throughput.
 *
 * A put-back must be cheap, since a hanging network's whole fetched backlog is put back at once, a
 * few times, before its lanes take it: a job of a network whose share is full of attempts that are
 * not ending is put back before its delivery is read (networkDeferral), and the put-backs of a
 * moment are one `add_jobs` call (requeue.ts). One query per job, and one `jobs:insert` notification each
 * waking the worker's pools, was what slowed other networks' requests on the same machine
 * (docs/PERFORMANCE.md, "Noisy neighbours").
 */
export function endpointConcurrency(): number {
  return config().WEBHOOK_ENDPOINT_CONCURRENCY;
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
export function deliveryQueueName(holderId: string, deliveryId: string, lanes = endpointConcurrency()): string {
  return `${LANE_PREFIX}${holderId}:${Number.parseInt(deliveryId.slice(0, 8), 16) % lanes}`;
}

/** What holds worker slots: a network, or one subscription of it. */
interface HolderState {
  /** Start times (epoch ms) of this process's attempts in flight. */
  inFlight: Set<{ startedAt: number }>;
  /** Subscriptions only: slow (lanes for its backlog) until then, after a slow or unanswered attempt. */
  slowUntil: number;
  /** When its last attempt ended (epoch ms): a holder whose attempts end often is worth waiting for. */
  lastEndedAt: number;
  /** Jobs waiting in this process for one of those attempts to end (admitAttemptSoon), woken one per end. */
  waiting: Array<() => void>;
}

export type Deferral = { admitted: false; queueName: string | null; runAt: Date; heldBy: 'network' | 'endpoint' };
export type Admission = { admitted: true; done: (outcome: { latencyMs: number; responded: boolean }) => void } | Deferral;

const endpoints = new Map<string, HolderState>();
const networks = new Map<string, HolderState>();

function stateOf(holders: Map<string, HolderState>, id: string): HolderState {
  let state = holders.get(id);
  if (!state) holders.set(id, (state = { inFlight: new Set(), slowUntil: 0, lastEndedAt: 0, waiting: [] }));
  return state;
}

/**
 * When a job put back outside the lanes comes again: in 100–200 ms while its holder's attempts are
 * starting or ending (a busy, quick endpoint), later the longer none has (`quiet`), up to 1–2 s.
 * Hanging endpoints' backlog then comes back a few times before its lanes take it, not every
 * 150 ms for SLOW_AFTER_MS: at 40 hanging subscriptions of one network that churn (each return a
 * job completed and added again) was what slowed other networks' requests on the same process
 * (docs/PERFORMANCE.md, "Noisy neighbours").
 */
function later(state: HolderState, now: number): Date {
  const newestStart = Math.max(0, ...[...state.inFlight].map((e) => e.startedAt));
  const quiet = now - Math.max(state.lastEndedAt, newestStart);
  const base = Math.min(1_000, Math.max(100, quiet));
  return new Date(now + base + Math.random() * base);
}

/**
 * Where a job beyond a subscription's share goes: back soon while the endpoint is quick (`later`),
 * else into its lanes for 1 s.
 */
function endpointDeferral(state: HolderState, lane: string, now: number): Deferral {
  const oldest = Math.min(...[...state.inFlight].map((e) => e.startedAt));
  const slow = state.slowUntil > now || now - oldest > SLOW_AFTER_MS;
  return { admitted: false, queueName: slow ? lane : null, runAt: slow ? new Date(now + 1_000) : later(state, now), heldBy: 'endpoint' };
}

/**
 * Where a job beyond a network's share goes: into the network's lanes for 1 s when every attempt
 * holding its share has run past SLOW_AFTER_MS (its share is held by slow endpoints: nothing frees
 * soon), else back soon (`later`). One slow or failing endpoint does not mark the whole network
 * slow — that is its subscription's lanes' job — so a network whose other endpoints answer keeps
 * its share's pace instead of a lane's (one job per lane per 2 s poll).
 */
function deferByNetwork(state: HolderState, lane: string, now: number): Deferral {
  const held = [...state.inFlight].every((e) => now - e.startedAt > SLOW_AFTER_MS);
  return { admitted: false, queueName: held ? lane : null, runAt: held ? new Date(now + 1_000) : later(state, now), heldBy: 'network' };
}

/** The most attempts of one network a worker process runs at a time. */
export function networkConcurrency(): number {
  return networkSlots(config().WORKER_CONCURRENCY);
}

/**
 * How long a job beyond a busy network's or endpoint's share may wait in this process for one of
 * its attempts to end, before it is put back. Only when the holder's attempts have been ending
 * (one ended within this time): then a place frees within milliseconds, and a burst of one
 * network's deliveries goes out at its share's pace without being put back — each put-back is a
 * write, and putting back every job beyond the share halved a single network's burst rate, with
 * three times the Postgres time per delivery. A holder whose attempts are not ending (hanging
 * endpoints) gets no waiter: its jobs are put back at once and hold no slot.
 */
export const QUICK_WAIT_MS = 250;

/**
 * `admitAttempt`, but a job beyond the share of a holder whose attempts are ending first waits (at
 * most QUICK_WAIT_MS) for one of them to end, and is admitted then.
 */
export async function admitAttemptSoon(attempt: { networkId: string; webhookId: string; deliveryId: string }): Promise<Admission> {
  const deadline = Date.now() + QUICK_WAIT_MS;
  for (;;) {
    const admission = admitAttempt(attempt);
    if (admission.admitted || admission.queueName !== null) return admission;
    const now = Date.now();
    const state = admission.heldBy === 'network' ? networks.get(attempt.networkId) : endpoints.get(attempt.webhookId);
    if (!state) continue;
    const left = deadline - now;
    if (left <= 0 || now - state.lastEndedAt > QUICK_WAIT_MS) return admission;
    const woken = await new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = state.waiting.indexOf(wake);
        if (at >= 0) state.waiting.splice(at, 1);
        resolve(false);
      }, left);
      state.waiting.push(wake);
    });
    if (!woken) return admitAttempt(attempt);
  }
}

/**
 * Where a job goes when its network's share is full of attempts that are not ending (none ended
 * within QUICK_WAIT_MS, so admitAttemptSoon would not wait): decided from the job alone, before
 * its delivery is read — a hanging network's backlog is put back without a query per job. `null`
 * when the network has room or its attempts are ending: then the delivery is read and admitted.
 */
export function networkDeferral(attempt: { networkId: string; deliveryId: string; now?: number }): Deferral | null {
  const now = attempt.now ?? Date.now();
  const network = networks.get(attempt.networkId);
  const limit = networkConcurrency();
  if (!network || network.inFlight.size < limit || now - network.lastEndedAt <= QUICK_WAIT_MS) return null;
  return deferByNetwork(network, deliveryQueueName(attempt.networkId, attempt.deliveryId, limit), now);
}

/**
 * Admit one attempt of `deliveryId` (of subscription `webhookId`, network `networkId`) now, or say
 * where and when its job goes instead.
 */
export function admitAttempt({
  networkId,
  webhookId,
  deliveryId,
  now = Date.now(),
}: {
  networkId: string;
  webhookId: string;
  deliveryId: string;
  now?: number;
}): Admission {
  const network = stateOf(networks, networkId);
  const networkLimit = networkConcurrency();
  if (network.inFlight.size >= networkLimit) return deferByNetwork(network, deliveryQueueName(networkId, deliveryId, networkLimit), now);
  const endpoint = stateOf(endpoints, webhookId);
  const endpointLimit = endpointConcurrency();
  if (endpoint.inFlight.size >= endpointLimit) return endpointDeferral(endpoint, deliveryQueueName(webhookId, deliveryId, endpointLimit), now);

  const entry = { startedAt: now };
  network.inFlight.add(entry);
  endpoint.inFlight.add(entry);
  return {
    admitted: true,
    done: ({ latencyMs, responded }) => {
      const at = Date.now();
      // A quick answer clears the mark: a flaky endpoint is not slow for a minute after each time-out.
      endpoint.slowUntil = !responded || latencyMs > SLOW_AFTER_MS ? at + SLOW_FOR_MS : 0;
      for (const [holders, id, state] of [
        [networks, networkId, network],
        [endpoints, webhookId, endpoint],
      ] as const) {
        state.inFlight.delete(entry);
        state.lastEndedAt = at;
        state.waiting.shift()?.();
        if (state.inFlight.size === 0 && state.slowUntil < at && state.waiting.length === 0) holders.delete(id);
      }
    },
  };
}
