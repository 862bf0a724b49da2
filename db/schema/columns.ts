import { integer, pgEnum, timestamp } from 'drizzle-orm/pg-core';

/** read_only < administrator; the order matters to `minRole`. */
export const roleEnum = pgEnum('role', ['read_only', 'administrator']);

/** Timestamps every table carries; `timestamptz` with milliseconds, as the API shows them. */
export const createdAt = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

export const lifecycle = {
  ...createdAt,
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/** Optimistic-lock counter: every update is `… where version = $read` and bumps it. */
export const versioned = {
  version: integer('version').notNull().default(1),
};
