import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { STORED_VOICE_CONSENT_STATUSES, VOICE_CONSENT_REVOKERS, VOICE_CONSENT_SCOPES } from '@/domain/voice-consent';
import { at, lifecycle } from './columns';
import { podcasts } from './ads';
import { networkReference } from './networks';

/**
 * A podcast host's consent to ads synthesized in their voice (docs/voice-consent.md): requested by
 * an administrator, decided by the host through an emailed link whose token (`vcl_…`) is stored only
 * as its SHA-256. What the host decided is kept with the statement they were shown (its version and
 * SHA-256) and their browser's user agent; never their IP address. `expired` is not stored: it is a
 * pending consent past its link's end, or a granted one past `expires_at`.
 */
export const voiceConsents = pgTable(
  'voice_consents',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    podcastId: text('podcast_id')
      .notNull()
      .references(() => podcasts.id),
    hostName: text('host_name').notNull(),
    /** Lower-cased, as every address the service keeps. */
    hostEmail: text('host_email').notNull(),
    scope: text('scope', { enum: VOICE_CONSENT_SCOPES }).notNull(),
    /** The advertisers covered when `scope` is `advertisers` (ids of this network's advertisers); empty otherwise. */
    advertiserIds: text('advertiser_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When a granted consent ends by itself; null: until revoked. */
    expiresAt: at('expires_at'),
    status: text('status', { enum: STORED_VOICE_CONSENT_STATUSES }).notNull().default('pending'),
    tokenHash: text('token_hash').notNull().unique(),
    /** The link works until then: VOICE_CONSENT_LINK_DAYS after the request, or `expires_at` when sooner. */
    linkExpiresAt: at('link_expires_at').notNull(),
    requestedByKeyId: text('requested_by_key_id'),
    grantedAt: at('granted_at'),
    refusedAt: at('refused_at'),
    /** The statement the host was shown when they granted or refused. */
    statementVersion: integer('statement_version'),
    statementSha256: text('statement_sha256'),
    /** The host's browser when they granted or refused (at most 500 characters). */
    decisionUserAgent: text('decision_user_agent'),
    revokedAt: at('revoked_at'),
    revokedBy: text('revoked_by', { enum: VOICE_CONSENT_REVOKERS }),
    /** The administrator's key, when an administrator revoked it. */
    revokedByKeyId: text('revoked_by_key_id'),
    /** The host's browser, when the host revoked it. */
    revocationUserAgent: text('revocation_user_agent'),
    ...lifecycle,
  },
  (t) => [
    index('voice_consents_network_id_idx').on(t.networkId, t.id),
    // Consents of one podcast: the console's list, and the covering consent synthesis will ask for.
    index('voice_consents_podcast_idx').on(t.networkId, t.podcastId, t.id),
    check('voice_consents_status', sql`${t.status} in ('pending', 'granted', 'refused', 'revoked')`),
    check('voice_consents_scope', sql`(${t.scope} = 'all_campaigns') = (cardinality(${t.advertiserIds}) = 0)`),
    check('voice_consents_decided', sql`${t.status} = 'pending' or ${t.status} = 'revoked' or ${t.statementSha256} is not null`),
  ],
);
