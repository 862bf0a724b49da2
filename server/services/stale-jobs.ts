import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';

/**
 * A worker killed outright (SIGKILL, OOM) leaves its jobs locked, and its lanes (the named queues a
 * job runs in) with them: graphile-worker (0.17 and 0.18 alike) reclaims both only after four hours.
 * Unlocks the jobs of `task`, and the queues named `lanePrefix…`, locked for longer than
 * `staleSeconds` — longer than any live worker holds one — so another worker takes them now.
 * Returns how many jobs it unlocked. (graphile-worker's private tables: patches/README.md.)
 */
export async function releaseStaleJobs({ db, task, lanePrefix, staleSeconds }: { db: Queryable; task: string; lanePrefix: string; staleSeconds: number }): Promise<number> {
  const rows = await db.execute<{ id: string }>(sql`
    with jobs as (
      update graphile_worker._private_jobs j
      set locked_at = null, locked_by = null
      from graphile_worker._private_tasks t
      where t.id = j.task_id and t.identifier = ${task}
        and j.locked_at < now() - make_interval(secs => ${staleSeconds})
      returning j.id
    ), lanes as (
      update graphile_worker._private_job_queues q
      set locked_at = null, locked_by = null
      where q.queue_name like ${`${lanePrefix}%`}
        and q.locked_at < now() - make_interval(secs => ${staleSeconds})
      returning q.id
    )
    select id from jobs`);
  return rows.length;
}
