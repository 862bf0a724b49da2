import { integer, pgEnum, timestamp } from 'drizzle-orm/pg-core';

/** read_only < administrator; the order matters to `minRole`. */
export const roleEnum = pgEnum('role', ['read_only', 'administrator']);

/** A point in time: `timestamptz` with milliseconds, as the API shows time. */
export const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** Timestamps every table carries. */
export const createdAt = {
  createdAt: at('created_at').notNull().defaultNow(),
};

export const lifecycle = {
  ...createdAt,
  updatedAt: at('updated_at').notNull().defaultNow(),
};

/** Optimistic-lock counter: every update is `… where version = $read` and bumps it. */
export const versioned = {
  version: integer('version').notNull().default(1),
};
