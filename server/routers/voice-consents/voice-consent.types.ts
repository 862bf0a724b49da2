import { z } from 'zod';
import { MAX_VOICE_CONSENT_ADVERTISERS, VOICE_CONSENT_REVOKERS, VOICE_CONSENT_SCOPES, VOICE_CONSENT_STATUSES } from '@/domain/voice-consent';
import { idField, iso, isoOrNull, networkParam, timestamp } from '@/server/routers/shared.types';
import type { VoiceConsentRow } from '@/server/services/voice-consents/find-voice-consents';
import { voiceConsentStatus } from '@/server/services/voice-consents/voice-consent-status';

/** Path parameters of one consent's routes. */
export const voiceConsentParams = {
  ...networkParam,
  consentId: z.string().min(1).meta({ description: 'Voice consent id (vcn_…).' }),
};

export const voiceConsentStatusSchema = z.enum(VOICE_CONSENT_STATUSES).meta({
  id: 'VoiceConsentStatus',
  description:
    'pending → granted | refused | revoked | expired; granted → revoked | expired. expired is derived when read: a pending request whose ' +
    'link has ended, or a granted consent past expires_at.',
});

export const voiceConsentScopeSchema = z
  .enum(VOICE_CONSENT_SCOPES, { error: 'scope must be all_campaigns or advertisers.' })
  .meta({ id: 'VoiceConsentScope', description: 'all_campaigns: every campaign of the network; advertisers: the campaigns of advertiser_ids only.' });

export const advertiserIdsField = z
  .array(z.string({ error: 'advertiser_ids must list advertiser ids (adv_…).' }).min(1), {
    error: 'advertiser_ids must be an array of advertiser ids.',
  })
  .max(MAX_VOICE_CONSENT_ADVERTISERS, `advertiser_ids may name at most ${MAX_VOICE_CONSENT_ADVERTISERS} advertisers.`)
  .meta({ description: `With scope advertisers: the network's advertisers covered, 1–${MAX_VOICE_CONSENT_ADVERTISERS} (adv_…).` });

const statementRecord = z
  .object({
    version: z.number().int().meta({ description: 'The version of the consent statement the host read.' }),
    sha256: z.string().meta({ description: 'The SHA-256 (hex) of that statement’s text.' }),
  })
  .meta({ id: 'VoiceConsentStatementRecord' });

export const voiceConsentSchema = z
  .object({
    id: z.string().meta({ example: 'vcn_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    podcast_id: idField('pod').meta({ description: 'The podcast whose host is asked.' }),
    host_name: z.string(),
    host_email: z.string().meta({ description: 'Where the consent link was sent; lower-cased.' }),
    scope: voiceConsentScopeSchema,
    advertiser_ids: z.array(z.string()).meta({ description: 'The advertisers covered when scope is advertisers; empty otherwise.' }),
    status: voiceConsentStatusSchema,
    expires_at: timestamp.nullable().meta({ description: 'When a granted consent ends by itself; null: until revoked.' }),
    link_expires_at: timestamp.meta({
      description: 'Until when the emailed link opens the consent: 30 days after the request, or expires_at when sooner.',
    }),
    granted_at: timestamp.nullable(),
    refused_at: timestamp.nullable(),
    statement: statementRecord.nullable().meta({ description: 'The statement the host read when they granted or refused; null before.' }),
    decision_user_agent: z
      .string()
      .nullable()
      .meta({ description: 'The host’s browser (User-Agent) when they granted or refused. No IP address is kept.' }),
    revoked_at: timestamp.nullable(),
    revoked_by: z.enum(VOICE_CONSENT_REVOKERS).nullable().meta({ description: 'host (from the link) or administrator; null unless revoked.' }),
    revocation_user_agent: z.string().nullable().meta({ description: 'The host’s browser when the host revoked it.' }),
    requested_by_key_id: z.string().nullable().meta({ description: 'The API key that asked for the consent.' }),
    revoked_by_key_id: z.string().nullable().meta({ description: 'The API key that revoked it, when an administrator did.' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'VoiceConsent' });

export type VoiceConsent = z.infer<typeof voiceConsentSchema>;

export function presentVoiceConsent(row: VoiceConsentRow): VoiceConsent {
  return {
    id: row.id,
    network_id: row.networkId,
    podcast_id: row.podcastId,
    host_name: row.hostName,
    host_email: row.hostEmail,
    scope: row.scope,
    advertiser_ids: row.advertiserIds,
    status: voiceConsentStatus(row),
    expires_at: isoOrNull(row.expiresAt),
    link_expires_at: iso(row.linkExpiresAt),
    granted_at: isoOrNull(row.grantedAt),
    refused_at: isoOrNull(row.refusedAt),
    statement: row.statementVersion !== null && row.statementSha256 !== null ? { version: row.statementVersion, sha256: row.statementSha256 } : null,
    decision_user_agent: row.decisionUserAgent,
    revoked_at: isoOrNull(row.revokedAt),
    revoked_by: row.revokedBy,
    revocation_user_agent: row.revocationUserAgent,
    requested_by_key_id: row.requestedByKeyId,
    revoked_by_key_id: row.revokedByKeyId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
