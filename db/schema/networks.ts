import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { lifecycle, roleEnum, versioned } from './columns';
import { users } from './identity';
import { MODES } from '@/domain/modes';

export const networks = pgTable(
  'networks',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /**
     * The longest a key scoped to this network may live, in days; null: no limit. Checked when a
     * key is minted (server/services/keys/mint-api-key.ts); lowering it leaves existing keys as they are.
     */
    maxKeyLifetimeDays: integer('max_key_lifetime_days'),
    /**
     * `test` (a sandbox) or `live`, fixed at creation (domain/modes.ts): a key works only on networks
     * of its own mode (the live operator's and a live session's excepted), a test network never calls
     * the voice vendor, and its deliveries are marked as tests.
     */
    mode: text('mode', { enum: MODES }).notNull(),
    ...versioned,
    ...lifecycle,
  },
  (t) => [
    check('networks_max_key_lifetime_days', sql`${t.maxKeyLifetimeDays} between 1 and 3650`),
    check('networks_mode', sql`${t.mode} in ('test', 'live')`),
  ],
);

/**
 * The row's network: every tenant table carries it, the shard key of the Citus plan
 * (docs/SCALING.md). A function declaration, so identity.ts (which networks.ts imports) can call it.
 */
export function networkReference() {
  return text('network_id')
    .notNull()
    .references(() => networks.id);
}

export const memberships = pgTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: roleEnum('role').notNull(),
    status: text('status', { enum: ['active', 'removed'] })
      .notNull()
      .default('active'),
    ...versioned,
    ...lifecycle,
  },
  (t) => [
    uniqueIndex('memberships_network_user_uq').on(t.networkId, t.userId),
    // Principal resolution looks a person's memberships up by user.
    index('memberships_user_idx').on(t.userId),
  ],
);
