import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, real, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, lifecycle, versioned } from './columns';
import {
  AUDIO_FORMATS,
  CAMPAIGN_STATUSES,
  CREATIVE_REVIEWERS,
  CREATIVE_STATUSES,
  FLIGHT_PLACEMENTS,
  OFFER_STATUSES,
  PRICING_MODELS,
  type AudioFormat,
  type FlightPlacement,
  type PricingModel,
} from '@/domain/statuses';
import { networkReference } from './networks';

export { AUDIO_FORMATS, CAMPAIGN_STATUSES, CREATIVE_STATUSES, OFFER_STATUSES, type AudioFormat };

/**
 * An offer's terms, copied from its flight when the offer is made, in the API's own shape:
 * what the podcaster decides on, unchanged by later edits of the flight.
 */
export interface OfferTerms {
  placement: FlightPlacement;
  starts_at: string;
  ends_at: string;
  max_duration_seconds: number;
  pricing: { model: PricingModel; amount_cents: number; currency: string };
  /** This podcast's share of the flight's impression goal, if one was given. */
  impression_goal: number | null;
}

/** What creatives.renditions says of each stored rendition (the bytes are in creative_audio). */
export interface RenditionSummary {
  format: AudioFormat;
  mimeType: string;
  sizeBytes: number;
  /** Measured on the rendition as delivered; null for audio stored before mastering existed. */
  loudnessLufs: number | null;
  truePeakDbtp: number | null;
}

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const advertisers = pgTable(
  'advertisers',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    name: text('name').notNull(),
    website: text('website'),
    contactEmail: text('contact_email'),
    /** IAB Ad Product Taxonomy ids (GET /v1/ad-categories): what brand safety compares. */
    categories: text('categories')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    deletedAt: at('deleted_at'),
    ...versioned,
    ...lifecycle,
  },
  (t) => [index('advertisers_network_id_idx').on(t.networkId, t.id)],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    advertiserId: text('advertiser_id')
      .notNull()
      .references(() => advertisers.id),
    name: text('name').notNull(),
    /** The ad copy the host voice reads. */
    script: text('script').notNull().default(''),
    /** Points the host is shown when reviewing (docs/creative-review.md); not read verbatim. */
    talkingPoints: text('talking_points')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Lines every script and revision must contain word for word (legal lines, disclosures). */
    requiredLines: text('required_lines')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('draft'),
    startsAt: at('starts_at'),
    endsAt: at('ends_at'),
    budgetCents: bigint('budget_cents', { mode: 'number' }),
    currency: text('currency'),
    /** Keep this campaign's advertiser and its competitors (a shared category) apart on a podcast in overlapping dates. */
    competitiveSeparation: boolean('competitive_separation').notNull().default(false),
    ...versioned,
    ...lifecycle,
  },
  (t) => [
    index('campaigns_network_id_idx').on(t.networkId, t.id),
    // List filters combine with keyset pagination by id.
    index('campaigns_network_status_id_idx').on(t.networkId, t.status, t.id),
    index('campaigns_network_advertiser_id_idx').on(t.networkId, t.advertiserId, t.id),
  ],
);

/** A campaign's line item: dates, placement, maximum ad length, price and goal. Its status is derived from the dates. */
export const flights = pgTable(
  'flights',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    name: text('name').notNull(),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    placement: text('placement', { enum: FLIGHT_PLACEMENTS }).notNull(),
    maxDurationSeconds: integer('max_duration_seconds').notNull().default(60),
    pricingModel: text('pricing_model', { enum: PRICING_MODELS }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** Required for cpm (checked by the service), optional for flat. */
    impressionGoal: bigint('impression_goal', { mode: 'number' }),
    /** The agency's or order-management system's own order number. */
    externalOrderId: text('external_order_id'),
    deletedAt: at('deleted_at'),
    ...versioned,
    ...lifecycle,
  },
  (t) => [
    index('flights_network_id_idx').on(t.networkId, t.id),
    // A campaign's flights are listed by keyset pagination on id.
    index('flights_network_campaign_id_idx').on(t.networkId, t.campaignId, t.id),
  ],
);

export const podcasts = pgTable(
  'podcasts',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    name: text('name').notNull(),
    hostName: text('host_name').notNull(),
    /** A voice preset name; the synthesis provider maps it to its own voice. */
    voice: text('voice').notNull().default('default'),
    rssUrl: text('rss_url'),
    optInStatus: text('opt_in_status', { enum: ['not_opted_in', 'opted_in', 'opted_out'] })
      .notNull()
      .default('not_opted_in'),
    optedInAt: at('opted_in_at'),
    /** Ad categories the show does not carry; an exclusion covers the category's sub-categories. */
    excludedCategories: text('excluded_categories')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Advertisers the show does not carry, by id. */
    blockedAdvertiserIds: text('blocked_advertiser_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ...versioned,
    ...lifecycle,
  },
  (t) => [index('podcasts_network_id_idx').on(t.networkId, t.id)],
);

export const offers = pgTable(
  'offers',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    podcastId: text('podcast_id')
      .notNull()
      .references(() => podcasts.id),
    /** Null for offers made without a flight (campaign + podcast + price). */
    flightId: text('flight_id').references(() => flights.id),
    /** Copied from the flight at creation; null without a flight. */
    terms: jsonb('terms').$type<OfferTerms>(),
    status: text('status', { enum: OFFER_STATUSES }).notNull().default('open'),
    priceCents: bigint('price_cents', { mode: 'number' }),
    currency: text('currency'),
    expiresAt: at('expires_at'),
    rejectReason: text('reject_reason'),
    creativeId: text('creative_id'),
    decidedAt: at('decided_at'),
    /** Set at acceptance: the random `trk_…` of its tracking URL (docs/measurement.md); not a credential. */
    trackingToken: text('tracking_token').unique(),
    ...versioned,
    ...lifecycle,
  },
  (t) => [
    index('offers_network_id_idx').on(t.networkId, t.id),
    index('offers_network_status_id_idx').on(t.networkId, t.status, t.id),
    index('offers_network_campaign_id_idx').on(t.networkId, t.campaignId, t.id),
    index('offers_network_podcast_id_idx').on(t.networkId, t.podcastId, t.id),
    index('offers_network_flight_id_idx').on(t.networkId, t.flightId, t.id),
    // The expiry cron finds open offers past their time.
    index('offers_open_expires_idx')
      .on(t.expiresAt)
      .where(sql`status = 'open'`),
  ],
);

export const creatives = pgTable(
  'creatives',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    offerId: text('offer_id')
      .notNull()
      .references(() => offers.id),
    campaignId: text('campaign_id').notNull(),
    podcastId: text('podcast_id').notNull(),
    status: text('status', { enum: CREATIVE_STATUSES }).notNull().default('generating'),
    /** 1 for the creative made at acceptance; a request for changes makes revision n+1 (a new row). */
    revision: integer('revision').notNull().default(1),
    /** The revision this one replaces; null for revision 1. */
    previousRevisionId: text('previous_revision_id'),
    /** What was read and in which voice: fixed at acceptance, or by the request for changes that made this revision. */
    script: text('script').notNull(),
    voice: text('voice').notNull(),
    /** Every creative is read by a synthesized voice, and says so. */
    syntheticVoice: boolean('synthetic_voice').notNull().default(true),
    /** The granted consent (voice_consents.id) it was synthesized under; null until synthesis is admitted. */
    voiceConsentId: text('voice_consent_id'),
    /** The host's review link (`crl_…`, SHA-256 only), made when the audio is ready for review. */
    reviewTokenHash: text('review_token_hash').unique(),
    reviewLinkExpiresAt: at('review_link_expires_at'),
    /** The decision on this revision: approved, or changes requested (then `review_comment`). */
    reviewedAt: at('reviewed_at'),
    reviewedBy: text('reviewed_by', { enum: CREATIVE_REVIEWERS }),
    /** The administrator's key when an administrator reviewed on the host's behalf. */
    reviewedByKeyId: text('reviewed_by_key_id'),
    reviewComment: text('review_comment'),
    /** Of the default rendition (MP3). */
    mimeType: text('mime_type'),
    durationMs: integer('duration_ms'),
    sizeBytes: integer('size_bytes'),
    sampleRate: integer('sample_rate'),
    /** Measured (BS.1770) on the default rendition as delivered; null before mastering existed. */
    loudnessLufs: real('loudness_lufs'),
    truePeakDbtp: real('true_peak_dbtp'),
    /** The stored renditions, default first, written with their bytes; null for audio stored before renditions existed. */
    renditions: jsonb('renditions').$type<RenditionSummary[]>(),
    /** Client-facing: never a vendor name, vendor voice id or storage key. */
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(0),
    readyAt: at('ready_at'),
    ...versioned,
    ...lifecycle,
  },
  (t) => [
    index('creatives_network_id_idx').on(t.networkId, t.id),
    index('creatives_network_status_id_idx').on(t.networkId, t.status, t.id),
    // One creative per offer: a second accept can never make a second one.
    uniqueIndex('creatives_offer_uq')
      .on(t.offerId)
      .where(sql`revision = 1`),
    // Revisions of an offer's creative are numbered 1, 2, … without gaps or twins.
    uniqueIndex('creatives_offer_revision_uq').on(t.offerId, t.revision),
    // What a grant or a revocation of a podcast's consent moves.
    index('creatives_network_podcast_status_idx').on(t.networkId, t.podcastId, t.status),
  ],
);

/** Audio bytes, one row per rendition, apart from the row so lists never read them. */
export const creativeAudio = pgTable(
  'creative_audio',
  {
    creativeId: text('creative_id')
      .notNull()
      .references(() => creatives.id),
    /** The creative's network: every tenant table carries it, so a statement can name its shard (docs/SCALING.md). */
    networkId: networkReference(),
    format: text('format', { enum: AUDIO_FORMATS }).notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.creativeId, t.format] })],
);
