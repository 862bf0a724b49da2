import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { apiKeys, notificationsSent } from '@/db/schema';
import { noticeExpiringKeys } from '@/server/services/notifications/expiring-keys';
import { createNetworkRow, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';

// The expiring-keys cron (server/services/notifications/expiring-keys.ts) on the database: which
// keys one run takes, read from the notices it claims.

useTestDatabase();

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

/** The keys among `ids` that a key_expiring notice has been claimed for. */
async function noticed(ids: string[]): Promise<string[]> {
  const rows = await database()
    .selectDistinct({ subjectId: notificationsSent.subjectId })
    .from(notificationsSent)
    .where(and(eq(notificationsSent.kind, 'key_expiring'), inArray(notificationsSent.subjectId, ids)));
  return rows.map((r) => r.subjectId).sort();
}

describe('the expiring-keys notice', () => {
  it('takes at most its share of one network’s keys per run, so another network’s keys are not held back', async () => {
    const busy = await createNetworkRow();
    const quiet = await createNetworkRow();
    const busyKeys = [];
    for (let i = 0; i < 3; i++)
      busyKeys.push((await personKey([{ networkId: busy.id, role: 'read_only' }], { expiresAt: inDays(1 + i / 10) })).key.id);
    // Ends last of all, so a run that took keys soonest first across networks would reach it last.
    const quietKey = (await personKey([{ networkId: quiet.id, role: 'read_only' }], { expiresAt: inDays(6) })).key.id;

    await noticeExpiringKeys({ db: database(), perNetwork: 2 });
    expect(await noticed([...busyKeys, quietKey])).toEqual([busyKeys[0]!, busyKeys[1]!, quietKey].sort());
    await noticeExpiringKeys({ db: database(), perNetwork: 2 });
    expect(await noticed(busyKeys)).toEqual([...busyKeys].sort());
  });

  it('looks at a key with nobody to tell once per occasion, not every hour', async () => {
    const network = await createNetworkRow(); // no administrator, and a service account has no mailbox
    const key = await serviceAccountKey(network.id, 'read_only');
    await database()
      .update(apiKeys)
      .set({ expiresAt: inDays(2) })
      .where(eq(apiKeys.id, key.key.id));

    await noticeExpiringKeys({ db: database() });
    const marks = await database().select().from(notificationsSent).where(eq(notificationsSent.subjectId, key.key.id));
    expect(marks).toEqual([expect.objectContaining({ userId: '', kind: 'key_expiring', occasion: 'expires_soon' })]);
  });
});
