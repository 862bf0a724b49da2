import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { networks } from '@/db/schema';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';
import { until } from '@/tests/support/until';

useTestDatabase();

/** Transactions waiting for another's row (a mint's FOR SHARE behind the update setting a limit). */
async function waitingOnRows(): Promise<number> {
  const [row] = await database().execute<{ n: number }>(
    sql`select count(*)::int as n from pg_locks where not granted and locktype in ('transactionid', 'tuple')`,
  );
  return row!.n;
}

describe('a key minted while its network is given a lifetime limit', () => {
  it('waits for the limit being set, then ends within it: the check holds at commit', async () => {
    const network = await createNetworkRow();
    const member = await personKey([{ networkId: network.id, role: 'administrator' }]);
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let updated!: () => void;
    const rowLocked = new Promise<void>((resolve) => (updated = resolve));
    // PATCH /v1/networks/{n} {max_key_lifetime_days: 30}, held open before its COMMIT.
    const limit = database().transaction(async (tx) => {
      await tx.update(networks).set({ maxKeyLifetimeDays: 30 }).where(eq(networks.id, network.id));
      updated();
      await committing;
    });
    await rowLocked;
    const mint = database().transaction((tx) =>
      mintApiKey({
        tx,
        name: 'racing the limit',
        owner: { userId: member.person.id },
        creator: 'platform',
        scopes: [{ networkId: network.id, role: 'read_only' }],
      }),
    );
    await until(async () => ((await waitingOnRows()) >= 1 ? true : undefined));
    commit();
    await limit;
    const { key } = await mint;
    expect(key.expiresAt).not.toBeNull();
    expect((key.expiresAt!.getTime() - Date.now()) / 86_400_000).toBeCloseTo(30, 1);
  });
});
