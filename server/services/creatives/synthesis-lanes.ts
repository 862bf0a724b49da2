import type { Queryable } from '@/db/client';
import { enqueueJob } from '@/server/jobs/enqueue';
import { config } from '@/server/config';
import { networkSlots } from '@/server/services/network-share';
import { releaseStaleJobs } from '@/server/services/stale-jobs';

/**
 * Synthesis is shared fairly between networks: each worker process synthesizes at most
 * `networkSlots(WORKER_SYNTHESIS_CONCURRENCY)` creatives of one network at a time
 * (WORKER_NETWORK_SHARE of its synthesis slots). A job beyond that is not run: it is put back into
 * one of the network's lanes — graphile-worker named queues `synthesis:<network id>:<lane>`, one job
 * at a time each, as many as the network's share — for a second later, and ends at once, freeing
 * its slot. So a network's backlog, however long, waits in its lanes (each gives up one job per
 * poll to be admitted or put back again) while every other network's creatives take the free slots.
 * A network under its share never waits: its jobs go straight through.
 */
export const SYNTHESIS_LANE_PREFIX = 'synthesis:';

/** The most creatives of one network a worker process synthesizes at a time. */
export function synthesisNetworkConcurrency(): number {
  return networkSlots(config().WORKER_SYNTHESIS_CONCURRENCY);
}

const inFlight = new Map<string, number>();

export type SynthesisAdmission = { admitted: true; done: () => void } | { admitted: false; queueName: string; runAt: Date };

/** The lane of a creative: a hash of its id modulo the lanes. */
export function synthesisQueueName(networkId: string, creativeId: string, lanes = synthesisNetworkConcurrency()): string {
  let hash = 0;
  for (const char of creativeId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${SYNTHESIS_LANE_PREFIX}${networkId}:${hash % lanes}`;
}

/** Admit the synthesis of `creativeId` now, or say where and when its job goes instead. */
export function admitSynthesis({
  networkId,
  creativeId,
  now = Date.now(),
}: {
  networkId: string;
  creativeId: string;
  now?: number;
}): SynthesisAdmission {
  const running = inFlight.get(networkId) ?? 0;
  const limit = synthesisNetworkConcurrency();
  if (running >= limit) return { admitted: false, queueName: synthesisQueueName(networkId, creativeId, limit), runAt: new Date(now + 1_000) };
  inFlight.set(networkId, running + 1);
  let done = false;
  return {
    admitted: true,
    done: () => {
      if (done) return;
      done = true;
      const left = (inFlight.get(networkId) ?? 1) - 1;
      if (left > 0) inFlight.set(networkId, left);
      else inFlight.delete(networkId);
    },
  };
}

/**
 * Put a synthesis job back without running it (admitSynthesis said where and when). It keeps the
 * attempts it has left: this run did not attempt anything.
 */
export async function requeueSynthesis({
  db,
  networkId,
  creativeId,
  queueName,
  runAt,
  attemptsLeft,
}: {
  db: Queryable;
  networkId: string;
  creativeId: string;
  queueName: string;
  runAt: Date;
  attemptsLeft: number;
}): Promise<void> {
  await enqueueJob(db, 'synthesize-creative', { creativeId, networkId }, { queueName, runAt, maxAttempts: Math.max(1, attemptsLeft) });
}

/**
 * A worker killed outright leaves its synthesis job locked, and its lane with it: graphile-worker
 * reclaims both only after four hours, and the network's other creatives in that lane would wait
 * as long. No synthesis job runs anywhere near STALE_SYNTHESIS_SECONDS (an upstream call is bounded
 * by SYNTH_TIMEOUT_MS and its retries, the local engine by 60 s per call, mastering by seconds),
 * so a job or lane locked longer belongs to a dead worker: unlock both, and another worker takes
 * the job. A creative synthesized twice is harmless (only a generating one becomes ready).
 * Each worker sweeps (jobs/worker.ts, with the delivery sweep).
 */
export const STALE_SYNTHESIS_SECONDS = 30 * 60;

export async function releaseStaleSynthesisJobs({
  db,
  staleSeconds = STALE_SYNTHESIS_SECONDS,
}: {
  db: Queryable;
  staleSeconds?: number;
}): Promise<number> {
  return releaseStaleJobs({ db, task: 'synthesize-creative', staleSeconds });
}
