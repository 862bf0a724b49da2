import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connect } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { enqueueJob } from '@/server/jobs/enqueue';
import { createTestDatabase } from './support/database';
import { ROOT } from './support/server-process';

describe('npm run worker', () => {
  it('runs jobs enqueued by another process, alone, and stops cleanly on SIGTERM', async () => {
    const database = await createTestDatabase('worker');
    const handle = connect(database.url, { max: 2 });
    try {
      await migrateDatabase(database.url);
      await handle.db.transaction((tx) => enqueueJob(tx, 'prune-idempotency-keys', {}));
      const [job] = await handle.db.execute<{ id: string }>(sql`select id::text from graphile_worker._private_jobs`);
      // Count our job only: the worker's own crontab may add others.
      const pending = async () =>
        (await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker._private_jobs where id = ${job!.id}::bigint`))[0]!
          .n;
      expect(await pending()).toBe(1);

      const worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
      const deadline = Date.now() + 30_000;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await pending()).toBe(0);
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await handle.close();
      await database.drop();
    }
  }, 60_000);
});
