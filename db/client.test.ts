import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { adminUrl } from '@/tests/support/database';
import { connect, transactionAsDatabase } from './client';

/**
 * Every keyed POST runs in `transactionAsDatabase` (server/http/idempotency.ts). When it returned
 * a new object whose prototype was the transaction, V8 gave that object a map — maps live in the
 * old generation until a full collection — pointing at the young transaction, so every young
 * collection kept each finished transaction, and all it reached, alive and then promoted it:
 * ~6 MB per scavenge under the POST benchmark, 8–20 ms pauses (docs/PERFORMANCE.md).
 *
 * Measured here as V8 sees it: after a young collection, what is left in the young generation is
 * what survived it. Each transaction carries ~200 KB of small objects; none may survive.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options: { type: 'minor'; execution: 'sync' }) => void;
const youngCollection = () => gc({ type: 'minor', execution: 'sync' });
const youngBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_used_size;

const handle = connect(adminUrl(), { max: 1 });
afterAll(() => handle.close());

async function finishedTransactions(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await handle.db.transaction(async (tx) => {
      Object.assign(tx, { carried: Array.from({ length: 8000 }, (_, j) => ({ j })) });
      const db = transactionAsDatabase(tx);
      await db.transaction((inner) => inner.execute(sql`select 1`));
    });
  }
  await new Promise((resolve) => setImmediate(resolve)); // past the job that ran them
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

  it('leaves nothing of a finished transaction to survive a young collection', async () => {
    await finishedTransactions(20); // warm: the maps and code the path needs are made
    youngCollection();
    youngCollection();
    await finishedTransactions(20); // ~4 MB carried in all
    youngCollection();
    expect(youngBytes()).toBeLessThan(512 * 1024);
  });
});
