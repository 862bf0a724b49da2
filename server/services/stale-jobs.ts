import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';

/**
 * A worker killed outright (SIGKILL, OOM) leaves its jobs locked, and its lanes (the named queues a
 * job runs in) with them: graphile-worker (0.17 and 0.18 alike) reclaims both only after four hours.
 * Finds the workers holding a job of `task` locked for longer than `staleSeconds` — longer than any
 * live worker holds one — that have locked nothing more recently (a live worker that is busy keeps
 * taking jobs), and unlocks everything they hold, jobs and lanes, through graphile-worker's public
 * `jobs` view and `force_unlock_workers`; another worker then takes the jobs now. Returns how many
 * jobs of `task` it unlocked.
 */
export async function releaseStaleJobs({ db, task, staleSeconds }: { db: Queryable; task: string; staleSeconds: number }): Promise<number> {
  const rows = await db.execute<{ jobs: number }>(sql`
    with stale as (
      select locked_by from graphile_worker.jobs
       where task_identifier = ${task} and locked_at < now() - make_interval(secs => ${staleSeconds})
    ), dead as (
      select s.locked_by from stale s
       where not exists (
         select 1 from graphile_worker.jobs j
          where j.locked_by = s.locked_by and j.locked_at >= now() - make_interval(secs => ${staleSeconds}))
    )
    select (select count(*) from dead)::int as jobs,
           graphile_worker.force_unlock_workers(array(select distinct locked_by from dead))`);
  return rows[0]?.jobs ?? 0;
}
