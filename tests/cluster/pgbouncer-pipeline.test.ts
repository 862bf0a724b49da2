import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '@/db/client';
import { clusterBinaries } from '@/scripts/cluster/binaries';
import { startPgBouncer, type PgBouncer } from '@/scripts/cluster/pgbouncer';
import { createTestDatabase } from '@/tests/support/database';

/**
 * The web processes' pool behind PgBouncer's transaction pooling, as `npm run cluster` sets it up.
 * `npm run bench:cluster` found a web process that stopped answering for good under load: postgres.js
 * pipelines a query after one in flight, and an unprepared query with parameters starts with
 * Parse/Describe/Flush — no Sync. PgBouncer (1.18, Debian 12's) hands the server connection back
 * at the first query's ReadyForQuery, drops the describe's answer ("got packet '1' from server
 * when not linked"), and the second query waits forever, holding its pool connection.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pgbouncer: PgBouncer;
let dir: string;
let handle: DbHandle;

beforeAll(async () => {
  const binaries = clusterBinaries();
  if ('missing' in binaries) throw new Error(binaries.missing);
  database = await createTestDatabase('pipeline');
  dir = mkdtempSync(path.join(tmpdir(), 'ans-pgbouncer-'));
  pgbouncer = await startPgBouncer({ binary: binaries.pgbouncer, dir, databaseUrl: database.url, transactionPoolSize: 2, sessionPoolSize: 2 });
  // As a web process of the cluster connects: transaction pool, no named prepared statements.
  handle = connect(pgbouncer.transactionUrl, { max: 1, prepare: false });
});

afterAll(async () => {
  await handle?.close();
  await pgbouncer?.child.stop('SIGTERM', 5_000);
  if (dir) rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

describe('the pool behind a transaction-pooling PgBouncer', () => {
  it('answers a query with parameters sent while another is in flight on the same connection', async () => {
    for (let i = 0; i < 50; i++) {
      const [plain, withParameter] = await within(
        5_000,
        Promise.all([handle.sql.unsafe('select 1 as one'), handle.sql.unsafe('select $1::int as n', [i])]),
      );
      expect(plain[0]!.one).toBe(1);
      expect(withParameter[0]!.n).toBe(i);
    }
  });
});
