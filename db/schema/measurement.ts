import { sql } from 'drizzle-orm';
import { bigint, check, customType, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { TRACKING_OUTCOMES } from '@/domain/measurement';
import { at, createdAt } from './columns';
import { networkReference } from './networks';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Every call of a tracking URL whose token is an accepted offer's (docs/measurement.md), with what
 * the counting rules made of it. Partitioned by day on `received_at` (migration 0023, by hand:
 * drizzle-kit knows no partitions); the partitions are made ahead and dropped after
 * TRACKING_RETENTION_DAYS by the `maintain-tracking` cron. No raw address: the source and the
 * dedupe key are HMACs under the day's salt (`tracking_salts`), which is deleted once it can no
 * longer dedupe. No foreign key: a hit's network and offer come from the offer row itself, and a
 * check per row would tax the hottest insert of the service.
 */
export const trackingHits = pgTable(
  'tracking_hits',
  {
    networkId: text('network_id').notNull(),
    offerId: text('offer_id').notNull(),
    /** When this service received it (its clock): the time every counting rule uses. */
    receivedAt: at('received_at').notNull(),
    /** The host's macros, as sent (cut to their maximum length); null when absent or left unfilled. */
    episode: text('episode'),
    hostTimestamp: at('host_timestamp'),
    requestId: text('request_id'),
    userAgent: text('user_agent'),
    /** HMAC-SHA-256 (first 16 bytes) of the IPv4 address or the IPv6 /64, under the salt of the hit's UTC day. */
    sourceHash: bytea('source_hash').notNull(),
    /** HMAC of source + user agent + episode under the same salt: with the offer, what one impression is. */
    dedupeKey: bytea('dedupe_key').notNull(),
    outcome: text('outcome', { enum: TRACKING_OUTCOMES }).notNull(),
  },
  (t) => [
    // The rolling-24-hours check: earlier counted hits of the same offer and key.
    index('tracking_hits_dedupe_idx')
      .on(t.networkId, t.offerId, t.dedupeKey, t.receivedAt)
      .where(sql`outcome = 'counted'`),
    // A source flagged abnormal: its hits of the day are found and excluded.
    index('tracking_hits_source_idx').on(t.networkId, t.sourceHash, t.receivedAt),
    check('tracking_hits_outcome', sql`${t.outcome} in ('counted', 'duplicate', 'bot', 'abnormal')`),
  ],
);

/**
 * Per offer and UTC day, what its hits came to: kept as hits arrive (in the transaction that records
 * them), so reports read these rows and never the raw hits. `impressions` is the count the rules
 * say; the other columns say why the rest were not counted.
 */
export const trackingDaily = pgTable(
  'tracking_daily',
  {
    networkId: networkReference(),
    offerId: text('offer_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    hits: bigint('hits', { mode: 'number' }).notNull().default(0),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    bots: bigint('bots', { mode: 'number' }).notNull().default(0),
    duplicates: bigint('duplicates', { mode: 'number' }).notNull().default(0),
    abnormal: bigint('abnormal', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.offerId, t.day] })],
);

/**
 * Hits per source (hashed, as in `tracking_hits`) per network and UTC day: past
 * TRACKING_SOURCE_DAILY_LIMIT the source is flagged and all its hits of that day are excluded.
 * Only today's and yesterday's rows are kept (the cron deletes the rest).
 */
export const trackingSources = pgTable(
  'tracking_sources',
  {
    networkId: text('network_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sourceHash: bytea('source_hash').notNull(),
    hits: integer('hits').notNull(),
    flaggedAt: at('flagged_at'),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.day, t.sourceHash] })],
);

/**
 * The secret each UTC day's hashes are made with (32 random bytes). Kept while it can still dedupe
 * (the hit's day and the next: the rolling 24 hours), then deleted by the cron, after which a
 * stored hash can no longer be tied to an address.
 */
export const trackingSalts = pgTable('tracking_salts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  salt: bytea('salt').notNull(),
});

/**
 * Impressions a host (or its ad server: Megaphone, Acast…) reports for an offer, per day and
 * source; a later report for the same day and source replaces the earlier one.
 */
export const deliveryReports = pgTable(
  'delivery_reports',
  {
    networkId: networkReference(),
    offerId: text('offer_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    source: text('source').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    /** The key that sent the report in force. */
    reportedByKeyId: text('reported_by_key_id'),
    reportedAt: at('reported_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.offerId, t.day, t.source] }), check('delivery_reports_impressions', sql`${t.impressions} >= 0`)],
);

/**
 * The pacing events the daily check has sent (server/services/flights/pacing-alerts.ts), one row
 * per event: the row is inserted `on conflict do nothing` in the event's own transaction, and the
 * event recorded only when it was, so two checks running at once, or one run again after a crash,
 * send each event once. `day` is the UTC day of the check.
 */
export const flightPacingAlerts = pgTable(
  'flight_pacing_alerts',
  {
    networkId: networkReference(),
    flightId: text('flight_id').notNull(),
    kind: text('kind', { enum: ['goal_reached', 'underdelivering'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ...createdAt,
  },
  (t) => [
    // flight.underdelivering: at most once per flight and UTC day.
    primaryKey({ columns: [t.networkId, t.flightId, t.kind, t.day] }),
    // flight.goal_reached: once per flight, ever.
    uniqueIndex('flight_pacing_alerts_goal_reached_uq')
      .on(t.networkId, t.flightId)
      .where(sql`kind = 'goal_reached'`),
    check('flight_pacing_alerts_kind', sql`${t.kind} in ('goal_reached', 'underdelivering')`),
  ],
);
