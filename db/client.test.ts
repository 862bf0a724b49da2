import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { adminUrl } from '@/tests/support/database';
import { connect, transactionAsDatabase } from './client';

/**
 * What a finished request leaves for V8's young collections to keep. Under load the service runs
 * a young collection every second or so; anything of a finished request that one keeps is
 * promoted to the old generation, and the collections that copy it pause for milliseconds —
 * the p99 of issue 16 (docs/PERFORMANCE.md, "/v1 at the speed of a bare server"). Each hole found
 * so far kept whole requests:
 *
 * - `transactionAsDatabase` returned a new object whose prototype was the transaction. V8 gave
 *   that object a map — maps live in the old generation — pointing at the young transaction.
 * - Function literals assigned to a property (`this.resolve = x => …`, `sql.prepare = x => …`,
 *   `c.reserved = () => …` in postgres.js, `args[last] = inner => …` in our client): V8's parser
 *   marks those for the old generation, and all but TurboFan's code allocate them there, so each
 *   kept what it closes over — a query with its rows, a transaction with the callback it ran and
 *   the request that callback closes over — until the next full collection. The code here runs a
 *   few dozen times, not optimized: as at a process's start and after every deoptimization.
 *
 * Measured as V8 sees it: after a young collection, what is left in the young generation is
 * what survived it. None of the finished work may be among it.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;
const youngCollection = () => gc({ type: 'minor', execution: 'sync' });
const youngBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_used_size;

const handle = connect(adminUrl(), { max: 1 });
afterAll(() => handle.close());

/** ~200 KB of small objects: about what a request's context reaches. */
const carried = () => Array.from({ length: 8000 }, (_, j) => ({ j }));

/** Young bytes left after one young collection that follows `runs` finished runs of `work` (after a warm-up of as many). */
async function youngBytesAfter(work: () => Promise<unknown>, runs = 20): Promise<number> {
  const repeat = async () => {
    for (let i = 0; i < runs; i++) await work();
    await new Promise((resolve) => setImmediate(resolve)); // past the job that ran them
  };
  await repeat(); // warm: the maps and code the path needs are made
  youngCollection();
  youngCollection();
  await repeat(); // ~4 MB carried in all
  youngCollection();
  return youngBytes();
}

describe('transactionAsDatabase', () => {
  it('runs a nested transaction inline: in the same transaction, with no savepoint to roll back to', async () => {
    const seen = await handle.db.transaction(async (tx) => {
      const db = transactionAsDatabase(tx);
      await db.execute(sql`create temporary table inline_probe (n int) on commit drop`);
      const outer = await db.execute<{ xid: string }>(sql`select txid_current()::text as xid`);
      const inner = await db
        .transaction(async (nested) => {
          await nested.execute(sql`insert into inline_probe values (1)`);
          throw new Error('the nested callback fails');
        })
        .catch(() => undefined);
      expect(inner).toBeUndefined();
      const [row] = await db.execute<{ xid: string; rows: number }>(
        sql`select txid_current()::text as xid, (select count(*) from inline_probe)::int as rows`,
      );
      return { sameTransaction: row!.xid === outer[0]!.xid, rows: row!.rows };
    });
    // A savepoint would have undone the insert; inline, only the whole transaction's rollback does.
    expect(seen).toEqual({ sameTransaction: true, rows: 1 });
  });
});

describe('what a young collection keeps of finished work', () => {
  it('keeps nothing of a transaction run inline through transactionAsDatabase', async () => {
    const left = await youngBytesAfter(() =>
      handle.db.transaction(async (tx) => {
        Object.assign(tx, { carried: carried() });
        const db = transactionAsDatabase(tx);
        await db.transaction((inner) => inner.execute(sql`select 1`));
      }),
    );
    expect(left).toBeLessThan(512 * 1024);
  });

  it('keeps nothing that a transaction’s callback closes over (a request, in the service)', async () => {
    const left = await youngBytesAfter(() => {
      const request = carried();
      return handle.db.transaction((tx) => tx.execute(sql`select ${request.length}::int`));
    });
    expect(left).toBeLessThan(512 * 1024);
  });

  it('keeps nothing of a query: its text, arguments and rows', async () => {
    const left = await youngBytesAfter(() => handle.sql`select g as j from generate_series(1, ${2000}::int) g`, 40);
    expect(left).toBeLessThan(512 * 1024);
  });

  it('keeps nothing of a transaction’s own bookkeeping (~0.9 KB each when kept)', async () => {
    const left = await youngBytesAfter(() => handle.db.transaction((tx) => tx.execute(sql`select 1`)), 400);
    expect(left).toBeLessThan(256 * 1024);
  });
});
