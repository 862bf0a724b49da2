import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns';

/**
 * Remembered POST responses, per API key and Idempotency-Key, for 24 h.
 * `state = 'running'` while the first request is in flight (a second one gets 409).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['running', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: jsonb('response_body'),
    expiresAt: at('expires_at').notNull(),
    ...createdAt,
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.key] }),
    // The prune job deletes by expiry.
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Token buckets shared by every process. The table is UNLOGGED (see the
 * migration): counters are cheap to lose on a crash and must not cost an fsync.
 * Processes sync their local spend here in batches, not once per request.
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** Instance-wide generated secrets, used only when APP_SECRET_KEY is not set (APP_ENV=test). */
export const instanceSecrets = pgTable('instance_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  ...createdAt,
});
