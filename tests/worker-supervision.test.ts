/**
 * graphile-worker stops its runner for good when it cannot record a finished job (the connection
 * died: Postgres restarting, a network blip). jobs/worker.ts starts a new one, so the service's
 * worker runs jobs again once Postgres answers — instead of never, until the process restarts.
 * The worker runs two runners (the main pool and the synthesis pool): each is replaced on its own.
 */
import { describe, it } from 'vitest';
import { connect } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { addJob } from '@/server/jobs/enqueue';
import { startWorker } from '@/jobs/worker';
import { logger } from '@/server/logger';
import { proxiedTestDatabase } from '@/tests/support/pg-proxy';
import { until } from '@/tests/support/until';

describe('the worker after its connections die while it finishes a job', () => {
  it('starts both pools again and each runs its next job once Postgres answers', { timeout: 90_000 }, async () => {
    const { database, proxy, viaProxy } = await proxiedTestDatabase('supervise');
    const handle = connect(database.url, { max: 1 });
    let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
    // graphile-worker logs every dead connection at error level; those errors are the point here.
    const level = logger.level;
    logger.level = 'fatal';
    try {
      await migrateDatabase(database.url);
      const ran: string[] = [];
      let finishFirst!: () => void;
      const firstMayFinish = new Promise<void>((resolve) => (finishFirst = resolve));
      const marker = (pool: string) => async (payload: unknown) => {
        const name = `${pool}:${(payload as { marker: string }).marker}`;
        ran.push(name);
        if (name.endsWith(':first')) await firstMayFinish;
      };
      worker = await startWorker({
        connectionString: viaProxy,
        concurrency: 1,
        synthesisConcurrency: 1,
        crontab: '',
        pollInterval: 200,
        taskList: { 'test-marker': marker('jobs') },
        synthesisTaskList: { 'test-synthesis-marker': marker('synthesis') },
      });
      await handle.db.transaction(async (tx) => {
        await addJob(tx, 'test-marker', { marker: 'first' });
        await addJob(tx, 'test-synthesis-marker', { marker: 'first' });
      });
      await until(() => (ran.includes('jobs:first') && ran.includes('synthesis:first')) || undefined, 15_000);

      // Postgres goes away while both jobs run: recording their completion fails, and graphile-worker
      // gives each runner up ("queue is in an inconsistent state; aborting").
      proxy.refuseConnections();
      finishFirst();
      await new Promise((r) => setTimeout(r, 3_000));
      proxy.acceptConnections();

      await handle.db.transaction(async (tx) => {
        await addJob(tx, 'test-marker', { marker: 'second' });
        await addJob(tx, 'test-synthesis-marker', { marker: 'second' });
      });
      await until(() => (ran.includes('jobs:second') && ran.includes('synthesis:second')) || undefined, 30_000);
    } finally {
      logger.level = level;
      await worker?.stop();
      await handle.close();
      await proxy.close();
      await database.drop();
    }
  });
});
