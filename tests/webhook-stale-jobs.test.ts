import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { addJob } from '@/jobs/enqueue';
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
