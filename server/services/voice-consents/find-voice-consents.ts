import { and, arrayContains, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { advertisers, networks, podcasts, voiceConsents } from '@/db/schema';
import type { VoiceConsentStatus } from '@/domain/voice-consent';
import { hashToken } from '@/server/auth/tokens';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

export type VoiceConsentRow = typeof voiceConsents.$inferSelect;

export { voiceConsentStatus, linkWorks } from './voice-consent-status';

function statusCondition(status: VoiceConsentStatus): SQL {
  const c = voiceConsents;
  const lapsed = and(isNotNull(c.expiresAt), lte(c.expiresAt, sql`now()`));
  switch (status) {
    case 'pending':
      return and(eq(c.status, 'pending'), gt(c.linkExpiresAt, sql`now()`))!;
    case 'granted':
      return and(eq(c.status, 'granted'), or(isNull(c.expiresAt), gt(c.expiresAt, sql`now()`)))!;
    case 'expired':
      return or(and(eq(c.status, 'pending'), lte(c.linkExpiresAt, sql`now()`)), and(eq(c.status, 'granted'), lapsed))!;
    default:
      return eq(c.status, status);
  }
}

/** One consent of the network, or undefined (also for another network's id: ids are not leaked). */
export function findVoiceConsent(find: { db: Queryable; networkId: string; id: string; lock?: 'update' }): Promise<VoiceConsentRow | undefined> {
  return networkRow(voiceConsents, find);
}

/** A network's consents, optionally of one podcast and one status, in id (= creation) order. */
export function listVoiceConsents({
  filter,
  ...page
}: NetworkPage & { filter: { podcastId?: string | undefined; status?: VoiceConsentStatus | undefined } }): Promise<VoiceConsentRow[]> {
  return networkPage(voiceConsents, page, [
    filter.podcastId ? eq(voiceConsents.podcastId, filter.podcastId) : undefined,
    filter.status ? statusCondition(filter.status) : undefined,
  ]);
}

/**
 * The consent a link's token opens, whatever its state, or undefined. The token is all the host's
 * request carries: the network comes from the row (the one lookup of this table that names none).
 */
export async function findVoiceConsentByToken({ db, token }: { db: Queryable; token: string }): Promise<VoiceConsentRow | undefined> {
  const [row] = await db
    .select()
    .from(voiceConsents)
    .where(eq(voiceConsents.tokenHash, hashToken(token)));
  return row;
}

/** What the host is shown of a consent beside its own fields: who asks, for which podcast, which advertisers by name. */
export interface VoiceConsentParties {
  networkName: string;
  podcastName: string;
  /** The advertisers of an `advertisers` scope, in the consent's order, with their names (a deleted one keeps its name). */
  advertisers: Array<{ id: string; name: string }>;
}

export async function findVoiceConsentParties({ db, consent }: { db: Queryable; consent: VoiceConsentRow }): Promise<VoiceConsentParties> {
  const [network] = await db.select({ name: networks.name }).from(networks).where(eq(networks.id, consent.networkId));
  const [podcast] = await db
    .select({ name: podcasts.name })
    .from(podcasts)
    .where(and(eq(podcasts.networkId, consent.networkId), eq(podcasts.id, consent.podcastId)));
  const named =
    consent.advertiserIds.length === 0
      ? []
      : await db
          .select({ id: advertisers.id, name: advertisers.name })
          .from(advertisers)
          .where(and(eq(advertisers.networkId, consent.networkId), inArray(advertisers.id, consent.advertiserIds)));
  const names = new Map(named.map((a) => [a.id, a.name]));
  return {
    networkName: network?.name ?? '',
    podcastName: podcast?.name ?? '',
    advertisers: consent.advertiserIds.map((id) => ({ id, name: names.get(id) ?? id })),
  };
}

/**
 * The granted consent under which a podcast's host voice may read an advertiser's ad at `at`, or
 * null: granted at or before `at`, not revoked by then, not past its `expires_at`, and covering the
 * advertiser (every campaign, or the advertiser among those it names). The most recent grant wins
 * when several cover. `lock: 'share'` holds the row until the caller's transaction ends, so a
 * revocation waits for what was decided under it (the synthesis gate, creatives/consent-gate.ts).
 */
export async function coveringConsent({
  tx,
  networkId,
  podcastId,
  advertiserId,
  at,
  lock,
}: {
  tx: Queryable;
  networkId: string;
  podcastId: string;
  advertiserId: string;
  /** `'now'`: granted and in force as the statement runs (what synthesis asks; a row a revocation is changing is read again after it). */
  at: Date | 'now';
  lock?: 'share';
}): Promise<VoiceConsentRow | null> {
  const c = voiceConsents;
  const inForce =
    at === 'now'
      ? [statusCondition('granted')]
      : [
          // Granted by then (a revoked consent was in force until its revocation).
          inArray(c.status, ['granted', 'revoked']),
          isNotNull(c.grantedAt),
          lte(c.grantedAt, at),
          or(isNull(c.revokedAt), gt(c.revokedAt, at)),
          or(isNull(c.expiresAt), gt(c.expiresAt, at)),
        ];
  const query = tx
    .select()
    .from(c)
    .where(
      and(
        eq(c.networkId, networkId),
        eq(c.podcastId, podcastId),
        ...inForce,
        or(eq(c.scope, 'all_campaigns'), arrayContains(c.advertiserIds, [advertiserId])),
      ),
    )
    .orderBy(desc(c.grantedAt), asc(c.id))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}
