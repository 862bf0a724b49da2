import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { lifecycle, roleEnum, versioned } from './columns';
import { users } from './identity';

export const networks = pgTable('networks', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ...versioned,
  ...lifecycle,
});

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
