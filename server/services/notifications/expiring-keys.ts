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

/**
 * Cron (hourly): for each key that can still end on its own (not revoked, not a console session —
 * those end every 12 hours) and expires within KEY_NOTICE_DAYS, tells its owner and the
 * administrators of each network it works on — once while it is about to expire and once when it
 * has (within a day of it), each at most once a day. A key whose notice went out is not looked at
 * again for that occasion. Each key is its own transaction.
 */
export async function noticeExpiringKeys({ db }: { db: Database }): Promise<number> {
  const occasion = sql<'expired' | 'expires_soon'>`case when ${apiKeys.expiresAt} <= now() then 'expired' else 'expires_soon' end`;
  const due = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      start: apiKeys.start,
      userId: apiKeys.userId,
      expiresAt: sql<Date>`${apiKeys.expiresAt}`,
      occasion,
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
    .orderBy(asc(apiKeys.expiresAt), asc(apiKeys.id))
    .limit(KEYS_PER_RUN);
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
