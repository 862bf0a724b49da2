import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { networkReference, networks } from './networks';
import { at } from './columns';

/**
 * The event log: one row per domain event, written on the transaction of the
 * change that caused it. Webhook fan-out hangs off `recordEvent`.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    type: text('type').notNull(),
    occurredAt: at('occurred_at').notNull().defaultNow(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    // The list endpoint pages by id within a network, optionally by type.
    index('events_network_id_idx').on(t.networkId, t.id),
    index('events_network_type_id_idx').on(t.networkId, t.type, t.id),
    // `?object_id=` (server/services/events/list-events.ts): the events with that value in a
    // top-level field of `data`, found through the index instead of reading the network's log.
    index('events_data_values_idx').using('gin', sql`(jsonb_path_query_array(${t.data}, '$.*')) jsonb_path_ops`),
  ],
);

/**
 * Who changed what: one row per change to keys, members, invitations, service
 * accounts (and webhooks), written on the transaction of the change.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    /** Null for changes outside any network (a key without scopes, say). */
    networkId: text('network_id').references(() => networks.id),
    actorKeyId: text('actor_key_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    occurredAt: at('occurred_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_network_id_idx').on(t.networkId, t.id)],
);
