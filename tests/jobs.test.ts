import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { database } from '@/db/client';
import { addJob } from '@/server/jobs/enqueue';
import { startWorker, type WorkerHandle } from '@/jobs/worker';
import { useTestDatabase } from './support/fixtures';

useTestDatabase();

async function jobsFor(marker: string): Promise<number> {
  const rows = await database().execute<{ n: number }>(
    sql`select count(*)::int as n from graphile_worker._private_jobs where payload->>'marker' = ${marker}`,
  );
  return rows[0]!.n;
}

describe('enqueueJob: jobs live and die with the caller’s transaction', () => {
  let runner: WorkerHandle | undefined;
  afterAll(async () => runner?.stop());

  it('a rolled-back transaction leaves no job; a committed one runs', async () => {
    const rolledBack = `rb-${Date.now()}`;
    const committed = `ok-${Date.now()}`;
    await database()
      .transaction(async (tx) => {
        await addJob(tx, 'test-marker', { marker: rolledBack });
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await jobsFor(rolledBack)).toBe(0);

    await database().transaction((tx) => addJob(tx, 'test-marker', { marker: committed }));
    expect(await jobsFor(committed)).toBe(1);

    const ran: string[] = [];
    runner = await startWorker({
      connectionString: inject('databaseUrl'),
      concurrency: 1,
      crontab: '',
      pollInterval: 200,
      taskList: {
        // Only this worker knows the task, so the shared server's worker leaves these jobs alone.
        'test-marker': async (payload) => {
          ran.push((payload as { marker?: string }).marker ?? '');
        },
      },
    });
    const deadline = Date.now() + 15_000;
    while (!ran.includes(committed) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(ran).toContain(committed);
    expect(ran).not.toContain(rolledBack);
    // Completed jobs are removed — in batches, a few milliseconds after the task returned
    // (completeJobBatchDelay), later on a loaded machine.
    while ((await jobsFor(committed)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await jobsFor(committed)).toBe(0);
  });
});
