import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { LANE_PREFIX } from './lanes';
import { config } from '@/server/config';

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

export async function releaseStaleDeliveryJobs({ db, staleSeconds = staleDeliverySeconds() }: { db: Queryable; staleSeconds?: number }): Promise<number> {
  // A delivery's lane (its named queue, lanes.ts) stays locked with its job: free both, or the
  // endpoint's other deliveries would wait the same four hours behind it.
  const rows = await db.execute<{ id: string }>(sql`
    with jobs as (
      update graphile_worker._private_jobs j
      set locked_at = null, locked_by = null
      from graphile_worker._private_tasks t
      where t.id = j.task_id and t.identifier = 'deliver-webhook'
        and j.locked_at < now() - make_interval(secs => ${staleSeconds})
      returning j.id
    ), lanes as (
      update graphile_worker._private_job_queues q
      set locked_at = null, locked_by = null
      where q.queue_name like ${`${LANE_PREFIX}%`}
        and q.locked_at < now() - make_interval(secs => ${staleSeconds})
      returning q.id
    )
    select id from jobs`);
  return rows.length;
}
