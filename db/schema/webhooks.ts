import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, lifecycle, versioned } from './columns';
import { events } from './events';
import { networkReference } from './networks';
import { DELIVERY_STATUSES } from '@/domain/statuses';

export { DELIVERY_STATUSES };

export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    url: text('url').notNull(),
    /** Event types this subscription receives. */
    events: text('events').array().notNull(),
    description: text('description'),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    disabledReason: text('disabled_reason'),
    /** The signing secret, sealed with APP_SECRET_KEY (never stored in plain text). */
    secretSealed: text('secret_sealed').notNull(),
    /** During a rotation: the previous secret, also signed with until `previous_secret_expires_at`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    deletedAt: at('deleted_at'),
    ...versioned,
    ...lifecycle,
  },
  (t) => [index('webhooks_network_id_idx').on(t.networkId, t.id)],
);

/** One delivery per (event, subscription); its UUID is the envelope id and X-Service-Delivery. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id),
    networkId: text('network_id').notNull(),
    /** Null exactly for a test event (POST …/test), which is sent but never recorded in the event log. */
    eventId: text('event_id').references(() => events.id),
    eventType: text('event_type').notNull(),
    /**
     * Marked as a test (`"test": true` in the body, `X-Service-Test: true`): a test event, and every
     * delivery of a test network. Only a test event, which has no event, is sent to a disabled subscription.
     */
    test: boolean('test').notNull().default(false),
    /** The exact bytes sent (and re-sent on every retry). */
    body: text('body').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastAttemptAt: at('last_attempt_at'),
    succeededAt: at('succeeded_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_webhook_uq').on(t.eventId, t.webhookId),
    // The delivery log pages by creation within a subscription.
    index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt, t.id),
    index('webhook_deliveries_webhook_status_idx').on(t.webhookId, t.status),
    // Subscription health (the webhook list): the latest attempted delivery, and the 24 h share that
    // succeeded, both read from this index alone (network_id and status are in it: index-only scans).
    index('webhook_deliveries_network_webhook_attempted_idx').on(t.networkId, t.webhookId, t.lastAttemptAt, t.status),
    check('webhook_deliveries_test_event_is_test', sql`${t.eventId} is not null or ${t.test}`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    /** The delivery's network: every tenant table carries it, so a statement can name its shard (docs/SCALING.md). */
    networkId: networkReference(),
    attemptNumber: integer('attempt_number').notNull(),
    startedAt: at('started_at').notNull(),
    latencyMs: integer('latency_ms'),
    statusCode: integer('status_code'),
    /** First 1 KiB of the response body. */
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptNumber)],
);
