import type { Queryable } from '@/db/client';
import { config } from '@/server/config';
import { releaseStaleJobs } from '@/server/services/stale-jobs';

/**
 * A worker killed outright (SIGKILL, OOM) leaves its jobs locked, and
 * graphile-worker (0.17 and 0.18 alike) only reclaims a locked job after four hours. A delivery
 * attempt lasts at most WEBHOOK_TIMEOUT_MS, so a delivery job locked for four
 * times that (60 s with the default 15 s) belongs to a dead worker: unlock it
 * so another worker sends it now. Deliveries are at-least-once, so the rare
 * double send is allowed. Each worker sweeps (jobs/worker.ts).
 */
export function staleDeliverySeconds(): number {
  const timeoutSeconds = config().WEBHOOK_TIMEOUT_MS / 1000;
  return Math.max(5, Math.ceil(timeoutSeconds * 4));
}

export async function releaseStaleDeliveryJobs({
  db,
  staleSeconds = staleDeliverySeconds(),
}: {
  db: Queryable;
  staleSeconds?: number;
}): Promise<number> {
  // A delivery's lane (its named queue, lanes.ts) stays locked with its job: both are freed, or the
  // endpoint's other deliveries would wait the same four hours behind it.
  return releaseStaleJobs({ db, task: 'deliver-webhook', staleSeconds });
}
