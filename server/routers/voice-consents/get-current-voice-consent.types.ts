import { z } from 'zod';
import { VOICE_CONSENT_REVOKERS } from '@/domain/voice-consent';
import { idField, iso, isoOrNull, timestamp } from '@/server/routers/shared.types';
import type { VoiceConsentLink } from '@/server/services/voice-consents/link-view';
import { voiceConsentStatus } from '@/server/services/voice-consents/voice-consent-status';
import { voiceConsentScopeSchema, voiceConsentStatusSchema } from './voice-consent.types';

export const getCurrentVoiceConsentInput = z.strictObject({});

/**
 * What the host's consent page shows, read with the link's token: who asks (the network and podcast by
 * name), for what, the statement, and what has been decided. Nothing of the network's beyond that.
 */
export const voiceConsentLinkViewSchema = z
  .object({
    id: idField('vcn'),
    status: voiceConsentStatusSchema,
    host_name: z.string(),
    network_name: z.string().meta({ description: 'Who asks.' }),
    podcast_name: z.string().meta({ description: 'The podcast the ads are for.' }),
    scope: voiceConsentScopeSchema,
    advertisers: z
      .array(z.object({ id: idField('adv'), name: z.string() }))
      .meta({ description: 'The advertisers covered, by name, when scope is advertisers; empty otherwise.' }),
    expires_at: timestamp.nullable().meta({ description: 'When the consent would end by itself; null: until revoked.' }),
    link_expires_at: timestamp.meta({ description: 'Until when this link works (after that it answers 404).' }),
    granted_at: timestamp.nullable(),
    refused_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
    revoked_by: z.enum(VOICE_CONSENT_REVOKERS).nullable(),
    statement: z
      .object({
        version: z.number().int(),
        sha256: z.string().meta({ description: 'SHA-256 (hex) of `text`, UTF-8.' }),
        text: z.string().meta({ description: 'The statement, paragraphs separated by a blank line.' }),
      })
      .meta({
        id: 'VoiceConsentStatement',
        description: 'The current statement while the request is pending (send its version to grant or refuse); afterwards the one decided on.',
      }),
  })
  .meta({ id: 'VoiceConsentLinkView' });

export type VoiceConsentLinkView = z.infer<typeof voiceConsentLinkViewSchema>;

export function presentVoiceConsentLinkView({ consent: row, parties, statement }: VoiceConsentLink): VoiceConsentLinkView {
  return {
    id: row.id,
    status: voiceConsentStatus(row),
    host_name: row.hostName,
    network_name: parties.networkName,
    podcast_name: parties.podcastName,
    scope: row.scope,
    advertisers: parties.advertisers,
    expires_at: isoOrNull(row.expiresAt),
    link_expires_at: iso(row.linkExpiresAt),
    granted_at: isoOrNull(row.grantedAt),
    refused_at: isoOrNull(row.refusedAt),
    revoked_at: isoOrNull(row.revokedAt),
    revoked_by: row.revokedBy,
    statement: { version: statement.version, sha256: statement.sha256, text: statement.text },
  };
}
