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
});
