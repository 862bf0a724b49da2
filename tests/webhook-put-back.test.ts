import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database, postgresClientOf } from '@/db/client';
import { deliveryJobKey } from '@/server/services/webhooks/delivery-job';
import { putBack } from '@/server/services/webhooks/requeue';
import { useTestDatabase } from './support/fixtures';

useTestDatabase();

/**
 * A hanging network's fetched backlog is put back all at once (lanes.ts): the put-backs of a moment
 * are one `add_jobs` call (requeue.ts), so one write and one `jobs:insert` notification wake the
 * worker pools, not one per job.
 */
describe('putting delivery jobs back', () => {
  it('writes the put-backs of a moment together, each job keyed, queued and timed as asked', async () => {
    const client = postgresClientOf(database());
    const counts: number[] = [];
    const listening = await client.listen('jobs:insert', (payload) => counts.push((JSON.parse(payload) as { count: number }).count));
    const networkId = `net_${randomUUID().slice(0, 8)}`;
    // Far in the future, so that the shared test server's worker leaves them alone.
    const runAt = new Date(Date.now() + 86_400_000);
    runAt.setMilliseconds(0);
    const jobs = Array.from({ length: 30 }, (_, i) => ({
      deliveryId: randomUUID(),
      networkId,
      queueName: i % 2 ? `webhook:${networkId}:${i % 3}` : null,
      runAt,
    }));
    try {
      await Promise.all(jobs.map((job) => putBack(client, job)));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the notification's way back
      expect(counts).toContain(jobs.length);

      const rows = await database().execute<{ key: string; task_identifier: string; queue_name: string | null; run_at: string }>(sql`
        select key, task_identifier, queue_name, run_at::text from graphile_worker.jobs
         where key in ${sql`(${sql.join(
           jobs.map((j) => sql`${deliveryJobKey(j.deliveryId)}`),
           sql`, `,
         )})`}`);
      const byKey = new Map(rows.map((r) => [r.key, r]));
      for (const job of jobs) {
        const row = byKey.get(deliveryJobKey(job.deliveryId));
        expect(row?.task_identifier).toBe('deliver-webhook');
        expect(row?.queue_name).toBe(job.queueName);
        expect(new Date(row!.run_at).getTime()).toBe(runAt.getTime());
      }
    } finally {
      await listening.unlisten();
      for (const job of jobs) await database().execute(sql`select graphile_worker.remove_job(${deliveryJobKey(job.deliveryId)})`);
    }
  });
});
