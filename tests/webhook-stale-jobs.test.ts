import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { addJob } from '@/jobs/enqueue';
import { releaseStaleSynthesisJobs } from '@/server/services/creatives/synthesis-lanes';
import { releaseStaleDeliveryJobs } from '@/server/services/webhooks/release-stale';
import { closeTestDatabase, openTestDatabase } from './support/fixtures';

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

describe('delivery jobs of a killed worker', () => {
  it('are unlocked once locked far longer than an attempt can take; fresh locks are left alone', async () => {
    const stale = randomUUID();
    const fresh = randomUUID();
    // Jobs as a SIGKILLed worker leaves them: locked, by a pool that no longer exists. They run far in
    // the future so the shared test server's worker does not take them once they are unlocked.
    for (const deliveryId of [stale, fresh]) {
      await database().transaction((tx) => addJob(tx, 'deliver-webhook', { deliveryId }, { runAt: new Date(Date.now() + 86_400_000) }));
    }
    await database().execute(sql`
      update graphile_worker._private_jobs set locked_by = 'pool-dead',
        locked_at = case when payload->>'deliveryId' = ${stale} then now() - interval '10 minutes' else now() end
      where payload->>'deliveryId' in (${stale}, ${fresh})`);
    expect(await releaseStaleDeliveryJobs({ db: database(), staleSeconds: 120 })).toBeGreaterThanOrEqual(1);
    const rows = await database().execute<{ delivery: string; locked_by: string | null }>(sql`
      select payload->>'deliveryId' as delivery, locked_by from graphile_worker._private_jobs
      where payload->>'deliveryId' in (${stale}, ${fresh})`);
    const lockedBy = Object.fromEntries(rows.map((r) => [r.delivery, r.locked_by]));
    expect(lockedBy[stale]).toBeNull();
    expect(lockedBy[fresh]).toBe('pool-dead');
    await database().execute(sql`delete from graphile_worker._private_jobs where payload->>'deliveryId' in (${stale}, ${fresh})`);
  });

  it('free the lane (named queue) a killed worker held with its job, so the endpoint’s other deliveries flow again', async () => {
    const deliveryId = randomUUID();
    const lane = `webhook:whk_stale_${deliveryId.slice(0, 8)}:0`;
    const fresh = `webhook:whk_fresh_${deliveryId.slice(0, 8)}:0`;
    for (const queueName of [lane, fresh]) {
      await database().transaction((tx) => addJob(tx, 'deliver-webhook', { deliveryId: randomUUID() }, { queueName, runAt: new Date(Date.now() + 86_400_000) }));
    }
    await database().execute(sql`
      update graphile_worker._private_job_queues set locked_by = 'pool-dead',
        locked_at = case when queue_name = ${lane} then now() - interval '10 minutes' else now() end
      where queue_name in (${lane}, ${fresh})`);
    await releaseStaleDeliveryJobs({ db: database(), staleSeconds: 120 });
    const rows = await database().execute<{ queue_name: string; locked_by: string | null }>(sql`
      select queue_name, locked_by from graphile_worker._private_job_queues where queue_name in (${lane}, ${fresh})`);
    expect(Object.fromEntries(rows.map((r) => [r.queue_name, r.locked_by]))).toEqual({ [lane]: null, [fresh]: 'pool-dead' });
    await database().execute(sql`delete from graphile_worker._private_jobs where job_queue_id in (select id from graphile_worker._private_job_queues where queue_name in (${lane}, ${fresh}))`);
  });
});

describe('synthesis jobs of a killed worker', () => {
  it('are unlocked with their network’s lane once locked far longer than a synthesis takes; fresh locks are left alone', async () => {
    const tag = randomUUID().slice(0, 8);
    const lanes = { stale: `synthesis:net_stale_${tag}:0`, fresh: `synthesis:net_fresh_${tag}:0` };
    // Far in the future, and for a task the shared server's worker would skip anyway: a creative that does not exist.
    for (const queueName of Object.values(lanes)) {
      await database().transaction((tx) => addJob(tx, 'synthesize-creative', { creativeId: `cre_${tag}` }, { queueName, runAt: new Date(Date.now() + 86_400_000) }));
    }
    const queues = sql`(select id from graphile_worker._private_job_queues where queue_name in (${lanes.stale}, ${lanes.fresh}))`;
    await database().execute(sql`
      update graphile_worker._private_job_queues set locked_by = 'pool-dead',
        locked_at = case when queue_name = ${lanes.stale} then now() - interval '2 hours' else now() end
      where queue_name in (${lanes.stale}, ${lanes.fresh})`);
    await database().execute(sql`
      update graphile_worker._private_jobs j set locked_by = 'pool-dead',
        locked_at = case when q.queue_name = ${lanes.stale} then now() - interval '2 hours' else now() end
      from graphile_worker._private_job_queues q where q.id = j.job_queue_id and j.job_queue_id in ${queues}`);
    expect(await releaseStaleSynthesisJobs({ db: database(), staleSeconds: 3_600 })).toBeGreaterThanOrEqual(1);
    const rows = await database().execute<{ queue_name: string; queue_locked: string | null; job_locked: string | null }>(sql`
      select q.queue_name, q.locked_by as queue_locked, j.locked_by as job_locked
        from graphile_worker._private_job_queues q join graphile_worker._private_jobs j on j.job_queue_id = q.id
       where q.id in ${queues}`);
    expect(Object.fromEntries(rows.map((r) => [r.queue_name, [r.queue_locked, r.job_locked]]))).toEqual({
      [lanes.stale]: [null, null],
      [lanes.fresh]: ['pool-dead', 'pool-dead'],
    });
    await database().execute(sql`delete from graphile_worker._private_jobs where job_queue_id in ${queues}`);
  });
});
