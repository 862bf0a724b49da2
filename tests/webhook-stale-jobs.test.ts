import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { addJob } from '@/server/jobs/enqueue';
import { releaseStaleSynthesisJobs } from '@/server/services/creatives/synthesis-lanes';
import { releaseStaleDeliveryJobs } from '@/server/services/webhooks/release-stale';
import { useTestDatabase } from './support/fixtures';

useTestDatabase();

describe('delivery jobs of a killed worker', () => {
  it('are unlocked once locked far longer than an attempt can take; a live worker’s locks are left alone', async () => {
    const tag = randomUUID().slice(0, 8);
    const pools = { dead: `pool-dead-${tag}`, alive: `pool-alive-${tag}`, busy: `pool-busy-${tag}` };
    // Jobs as workers leave them: a SIGKILLed one's locked long ago, a live one's just now, and a live
    // one that took a job just now besides one it has held long (alive: left alone, all of it). They
    // run far in the future so the shared test server's worker does not take them once unlocked.
    const locks = [
      { pool: pools.dead, ago: '10 minutes' },
      { pool: pools.alive, ago: '0 seconds' },
      { pool: pools.busy, ago: '10 minutes' },
      { pool: pools.busy, ago: '1 second' },
    ].map((lock) => ({ ...lock, deliveryId: randomUUID() }));
    for (const { deliveryId, pool, ago } of locks) {
      await database().transaction((tx) => addJob(tx, 'deliver-webhook', { deliveryId }, { runAt: new Date(Date.now() + 86_400_000) }));
      await database().execute(sql`
        update graphile_worker._private_jobs set locked_by = ${pool}, locked_at = now() - ${ago}::interval
        where payload->>'deliveryId' = ${deliveryId}`);
    }
    expect(await releaseStaleDeliveryJobs({ db: database(), staleSeconds: 120 })).toBeGreaterThanOrEqual(1);
    const ids = locks.map((l) => l.deliveryId);
    const rows = await database().execute<{ delivery: string; locked_by: string | null }>(sql`
      select payload->>'deliveryId' as delivery, locked_by from graphile_worker._private_jobs
      where payload->>'deliveryId' in ${sql`(${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`}`);
    const lockedBy = Object.fromEntries(rows.map((r) => [r.delivery, r.locked_by]));
    expect(locks.map((l) => lockedBy[l.deliveryId])).toEqual([null, pools.alive, pools.busy, pools.busy]);
    await database().execute(
      sql`delete from graphile_worker._private_jobs where payload->>'deliveryId' in ${sql`(${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`}`,
    );
  });

  it('free the lane (named queue) a killed worker held with its job, so the endpoint’s other deliveries flow again', async () => {
    const deliveryId = randomUUID();
    const lane = `webhook:whk_stale_${deliveryId.slice(0, 8)}:0`;
    const fresh = `webhook:whk_fresh_${deliveryId.slice(0, 8)}:0`;
    for (const queueName of [lane, fresh]) {
      await database().transaction((tx) =>
        addJob(tx, 'deliver-webhook', { deliveryId: randomUUID() }, { queueName, runAt: new Date(Date.now() + 86_400_000) }),
      );
    }
    // A worker running a job of a lane holds both the job and the lane; a killed one leaves both locked.
    const queues = sql`(select id from graphile_worker._private_job_queues where queue_name in (${lane}, ${fresh}))`;
    await database().execute(sql`
      update graphile_worker._private_job_queues
         set locked_by = case when queue_name = ${lane} then 'pool-dead' else 'pool-alive' end,
             locked_at = case when queue_name = ${lane} then now() - interval '10 minutes' else now() end
      where queue_name in (${lane}, ${fresh})`);
    await database().execute(sql`
      update graphile_worker._private_jobs j set locked_by = q.locked_by, locked_at = q.locked_at
        from graphile_worker._private_job_queues q where q.id = j.job_queue_id and j.job_queue_id in ${queues}`);
    await releaseStaleDeliveryJobs({ db: database(), staleSeconds: 120 });
    const rows = await database().execute<{ queue_name: string; locked_by: string | null }>(sql`
      select queue_name, locked_by from graphile_worker._private_job_queues where queue_name in (${lane}, ${fresh})`);
    expect(Object.fromEntries(rows.map((r) => [r.queue_name, r.locked_by]))).toEqual({ [lane]: null, [fresh]: 'pool-alive' });
    await database().execute(
      sql`delete from graphile_worker._private_jobs where job_queue_id in (select id from graphile_worker._private_job_queues where queue_name in (${lane}, ${fresh}))`,
    );
  });
});

describe('synthesis jobs of a killed worker', () => {
  it('are unlocked with their network’s lane once locked far longer than a synthesis takes; fresh locks are left alone', async () => {
    const tag = randomUUID().slice(0, 8);
    const lanes = { stale: `synthesis:net_stale_${tag}:0`, fresh: `synthesis:net_fresh_${tag}:0` };
    // Far in the future, and for a task the shared server's worker would skip anyway: a creative that does not exist.
    for (const queueName of Object.values(lanes)) {
      await database().transaction((tx) =>
        addJob(tx, 'synthesize-creative', { creativeId: `cre_${tag}` }, { queueName, runAt: new Date(Date.now() + 86_400_000) }),
      );
    }
    const queues = sql`(select id from graphile_worker._private_job_queues where queue_name in (${lanes.stale}, ${lanes.fresh}))`;
    await database().execute(sql`
      update graphile_worker._private_job_queues
         set locked_by = case when queue_name = ${lanes.stale} then 'pool-dead' else 'pool-alive' end,
             locked_at = case when queue_name = ${lanes.stale} then now() - interval '2 hours' else now() end
      where queue_name in (${lanes.stale}, ${lanes.fresh})`);
    await database().execute(sql`
      update graphile_worker._private_jobs j set locked_by = q.locked_by, locked_at = q.locked_at
      from graphile_worker._private_job_queues q where q.id = j.job_queue_id and j.job_queue_id in ${queues}`);
    expect(await releaseStaleSynthesisJobs({ db: database(), staleSeconds: 3_600 })).toBeGreaterThanOrEqual(1);
    const rows = await database().execute<{ queue_name: string; queue_locked: string | null; job_locked: string | null }>(sql`
      select q.queue_name, q.locked_by as queue_locked, j.locked_by as job_locked
        from graphile_worker._private_job_queues q join graphile_worker._private_jobs j on j.job_queue_id = q.id
       where q.id in ${queues}`);
    expect(Object.fromEntries(rows.map((r) => [r.queue_name, [r.queue_locked, r.job_locked]]))).toEqual({
      [lanes.stale]: [null, null],
      [lanes.fresh]: ['pool-alive', 'pool-alive'],
    });
    await database().execute(sql`delete from graphile_worker._private_jobs where job_queue_id in ${queues}`);
  });
});
