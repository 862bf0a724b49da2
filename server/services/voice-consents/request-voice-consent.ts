import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { advertisers, podcasts, voiceConsents } from '@/db/schema';
import { scopeInWords, VOICE_CONSENT_LINK_DAYS, type VoiceConsentScope } from '@/domain/voice-consent';
import { generateSecretToken, hashToken } from '@/server/auth/tokens';
import { config } from '@/server/config';
import { badRequest, conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { queueEmail } from '@/server/services/mail/queue-email';
import { voiceConsentEmail } from '@/server/services/mail/templates';
import { reserveVoiceConsentSlot } from '@/server/services/quotas';
import { findVoiceConsentParties } from './find-voice-consents';

export interface VoiceConsentRequest {
  networkId: string;
  podcastId: string;
  hostName: string;
  /** Already lower-cased. */
  hostEmail: string;
  scope: VoiceConsentScope;
  /** The network's advertisers the consent covers, for an `advertisers` scope (distinct). */
  advertiserIds: string[];
  expiresAt?: Date | undefined;
  actorKeyId: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where the host decides: the console's page, the token in the fragment (browsers send no fragment to a server). */
export const voiceConsentLink = (token: string) => `${config().publicUrl}/console/voice-consent#token=${token}`;

/**
 * Ask a podcast's host for consent to ads in their synthesized voice. The link's token (`vcl_…`)
 * exists only here and in the email that carries it to the host, queued in this transaction (sent
 * exactly when the request commits, in the network's mail queue as invitations are); only its
 * SHA-256 is stored. The link works for VOICE_CONSENT_LINK_DAYS, or until the consent's own end
 * when that is sooner. Bounds: QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK pending requests a network,
 * and one pending request per podcast and address (a second would only mail the host again).
 */
export async function requestVoiceConsent({ tx, ...input }: { tx: Tx } & VoiceConsentRequest) {
  const [podcast] = await tx
    .select({ id: podcasts.id })
    .from(podcasts)
    .where(and(eq(podcasts.networkId, input.networkId), eq(podcasts.id, input.podcastId)))
    .for('share');
  if (!podcast) throw notFound('Podcast');
  const now = Date.now();
  if (input.expiresAt && input.expiresAt.getTime() <= now) {
    throw badRequest('expires_at must be in the future.', [{ path: 'expires_at', message: 'Must be in the future.' }]);
  }
  if (input.advertiserIds.length > 0) {
    const known = await tx
      .select({ id: advertisers.id })
      .from(advertisers)
      .where(and(eq(advertisers.networkId, input.networkId), inArray(advertisers.id, input.advertiserIds), isNull(advertisers.deletedAt)));
    const unknown = input.advertiserIds.filter((id) => !known.some((a) => a.id === id));
    if (unknown.length > 0) {
      throw badRequest(`advertiser_ids names ${unknown.join(', ')}, not an advertiser of this network.`, [
        { path: 'advertiser_ids', message: `Unknown advertiser: ${unknown[0]}.` },
      ]);
    }
  }

  await reserveVoiceConsentSlot({ tx, networkId: input.networkId });
  const [waiting] = await tx
    .select({ id: voiceConsents.id })
    .from(voiceConsents)
    .where(
      and(
        eq(voiceConsents.networkId, input.networkId),
        eq(voiceConsents.podcastId, podcast.id),
        eq(voiceConsents.hostEmail, input.hostEmail),
        eq(voiceConsents.status, 'pending'),
        gt(voiceConsents.linkExpiresAt, sql`now()`),
      ),
    );
  if (waiting) {
    throw conflict(
      `A request to ${input.hostEmail} for this podcast is still pending (${waiting.id}): revoke it first to ask again with other terms.`,
    );
  }

  const token = generateSecretToken('vcl');
  const linkEnd = now + VOICE_CONSENT_LINK_DAYS * DAY_MS;
  const [row] = await tx
    .insert(voiceConsents)
    .values({
      id: newId('voiceConsent'),
      networkId: input.networkId,
      podcastId: podcast.id,
      hostName: input.hostName,
      hostEmail: input.hostEmail,
      scope: input.scope,
      advertiserIds: input.advertiserIds,
      expiresAt: input.expiresAt ?? null,
      tokenHash: hashToken(token),
      linkExpiresAt: new Date(input.expiresAt ? Math.min(linkEnd, input.expiresAt.getTime()) : linkEnd),
      requestedByKeyId: input.actorKeyId,
    })
    .returning();
  const consent = row!;
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'voice_consent.requested',
    targetType: 'voice_consent',
    targetId: consent.id,
    data: {
      podcast_id: consent.podcastId,
      host_name: consent.hostName,
      host_email: consent.hostEmail,
      scope: consent.scope,
      advertiser_ids: consent.advertiserIds,
      expires_at: consent.expiresAt?.toISOString() ?? null,
    },
  });
  const parties = await findVoiceConsentParties({ db: tx, consent });
  const emailId = await queueEmail({
    tx,
    kind: 'voice_consent',
    to: consent.hostEmail,
    queue: input.networkId,
    message: voiceConsentEmail({
      hostName: consent.hostName,
      networkName: parties.networkName,
      podcastName: parties.podcastName,
      scope: scopeInWords(consent.scope, parties.advertisers),
      expiresAt: consent.expiresAt,
      linkExpiresAt: consent.linkExpiresAt,
      link: voiceConsentLink(token),
    }),
  });
  return { consent, token, emailId };
}
