import { and, asc, eq, gt, isNotNull, isNull, lte, not, notExists, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { apiKeys, apiKeyScopes, notificationsSent } from '@/db/schema';
import { config } from '@/server/config';
import { keyExpiringEmail } from '@/server/services/mail/templates';
import { consoleLink } from './notices';
import { networkAdministrators, notify, person, pruneNotificationsSent, type Recipient } from './notify';

/** How long before its end a key's owner and administrators are told. */
export const KEY_NOTICE_DAYS = 7;
/** The most keys one run looks at; the rest wait for the next (hourly). */
const KEYS_PER_RUN = 1_000;
/** The most keys of one network one run looks at: a network with many keys ending cannot hold back another's notices. */
export const KEYS_PER_NETWORK_PER_RUN = 100;
/** notifications_sent's recipient when a notice found nobody to tell: the key is not looked at again for that occasion. */
const NOBODY = '';

/**
 * Cron (hourly): for each key that can still end on its own (not revoked, not a console session —
 * those end every 12 hours) and expires within KEY_NOTICE_DAYS, tells its owner and the
 * administrators of each network it works on — once while it is about to expire and once when it
 * has (within a day of it), each at most once a day. A key whose notice went out, or that has nobody
 * to tell (no owner with a mailbox, no administrator), is not looked at again for that occasion. One run takes at most `perNetwork` keys of a
 * network (by its first network; a key without one, by its owner), soonest first. Each key is its
 * own transaction.
 */
export async function noticeExpiringKeys({ db, perNetwork = KEYS_PER_NETWORK_PER_RUN }: { db: Database; perNetwork?: number }): Promise<number> {
  const occasion = sql<'expired' | 'expires_soon'>`case when ${apiKeys.expiresAt} <= now() then 'expired' else 'expires_soon' end`;
  const firstNetwork = sql`(select min(${apiKeyScopes.networkId}) from ${apiKeyScopes} where ${apiKeyScopes.keyId} = ${apiKeys.id})`;
  const ranked = db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      start: apiKeys.start,
      userId: apiKeys.userId,
      expiresAt: sql<Date>`${apiKeys.expiresAt}`.as('expires_at'),
      occasion: occasion.as('occasion'),
      rank: sql<number>`row_number() over (partition by coalesce(${firstNetwork}, ${apiKeys.userId}, ${apiKeys.id}) order by ${apiKeys.expiresAt}, ${apiKeys.id})`.as(
        'rank',
      ),
    })
    .from(apiKeys)
    .where(
      and(
        isNull(apiKeys.revokedAt),
        not(apiKeys.session),
        isNotNull(apiKeys.expiresAt),
        gt(apiKeys.expiresAt, sql`now() - interval '1 day'`),
        lte(apiKeys.expiresAt, sql`now() + make_interval(days => ${KEY_NOTICE_DAYS})`),
        notExists(
          db
            .select({ one: sql`1` })
            .from(notificationsSent)
            .where(
              and(eq(notificationsSent.kind, 'key_expiring'), eq(notificationsSent.subjectId, apiKeys.id), eq(notificationsSent.occasion, occasion)),
            ),
        ),
      ),
    )
    .as('ranked');
  const due = await db.select().from(ranked).where(lte(ranked.rank, perNetwork)).orderBy(asc(ranked.expiresAt), asc(ranked.id)).limit(KEYS_PER_RUN);
  let sent = 0;
  for (const key of due) {
    sent += await db.transaction(async (tx) => {
      const scopes = await tx.select({ networkId: apiKeyScopes.networkId }).from(apiKeyScopes).where(eq(apiKeyScopes.keyId, key.id));
      const networkIds = scopes.map((s) => s.networkId).sort();
      const owner = key.userId ? await person({ tx, userId: key.userId }) : undefined;
      const networkNames: string[] = [];
      /** Where each recipient manages the key: the owner their own keys, an administrator the network's. */
      const pageOf = new Map<string, string>();
      if (owner) pageOf.set(owner.id, networkIds[0] ? consoleLink(networkIds[0], 'my-keys') : `${config().publicUrl}/console`);
      const recipients: Recipient[] = owner ? [owner] : [];
      for (const networkId of networkIds) {
        const { networkName, administrators } = await networkAdministrators({ tx, networkId });
        networkNames.push(networkName);
        for (const admin of administrators) if (!pageOf.has(admin.id)) pageOf.set(admin.id, consoleLink(networkId, 'api-keys'));
        recipients.push(...administrators);
      }
      if (recipients.length === 0) {
        await tx
          .insert(notificationsSent)
          .values({ userId: NOBODY, kind: 'key_expiring', subjectId: key.id, occasion: key.occasion })
          .onConflictDoNothing();
        return 0;
      }
      return notify({
        tx,
        kind: 'key_expiring',
        subjectId: key.id,
        occasion: key.occasion,
        recipients,
        queue: networkIds[0] ?? key.userId ?? key.id,
        message: (to, unsubscribe) =>
          keyExpiringEmail({
            name: to.name,
            keyName: key.name,
            keyStart: key.start,
            expiresAt: new Date(key.expiresAt),
            expired: key.occasion === 'expired',
            networkNames,
            link: pageOf.get(to.id)!,
            unsubscribe,
          }),
      });
    });
  }
  await db.transaction((tx) => pruneNotificationsSent({ tx }));
  return sent;
}
