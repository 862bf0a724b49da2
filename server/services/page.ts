import { and, asc, desc, eq, gt, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '@/db/client';

/** What every list service of a network takes: the network, and the keyset page after `afterId`. */
export interface NetworkPage {
  db: Queryable;
  networkId: string;
  afterId: string | undefined;
  take: number;
  /** Oldest first (default) or newest first; the cursor follows. */
  order?: 'asc' | 'desc';
  /** Only rows created in this window (inclusive), for tables with `created_at`. */
  created?: { since?: Date | undefined; until?: Date | undefined };
}

/** A table of one network's rows, listed by its id (ids sort in creation order). */
type NetworkTable = PgTable & { id: PgColumn; networkId: PgColumn; createdAt?: PgColumn };

/**
 * One keyset page of `table`: the network's rows that match every condition, in id (= creation)
 * order (or its reverse), after `afterId`, at most `take`. The lists of one table read through here; a list that
 * joins (members, with their person) writes the same conditions itself.
 */
export function networkPage<T extends NetworkTable>(
  table: T,
  { db, networkId, afterId, take, order = 'asc', created }: NetworkPage,
  conditions: Array<SQL | undefined> = [],
): Promise<T['$inferSelect'][]> {
  if (created?.since) conditions.push(gte(table.createdAt!, created.since));
  if (created?.until) conditions.push(lte(table.createdAt!, created.until));
  return db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.networkId, networkId), afterId ? (order === 'desc' ? lt : gt)(table.id, afterId) : undefined, ...conditions))
    .orderBy(order === 'desc' ? desc(table.id) : asc(table.id))
    .limit(take) as Promise<T['$inferSelect'][]>;
}

/** A row lock held until the transaction ends: `no key update` is what an UPDATE of the row itself takes (it lets inserts that reference the row through). */
export type RowLock = 'update' | 'no key update' | 'share';

/**
 * The row of `table` with this id in the network, or undefined — for another network's id too, so
 * ids are not leaked — when every condition holds; locked until the transaction ends when `lock`
 * says so. The finds of one row of one table by id read through here.
 */
export async function networkRow<T extends NetworkTable>(
  table: T,
  { db, networkId, id, lock }: { db: Queryable; networkId: string; id: string; lock?: RowLock | undefined },
  conditions: Array<SQL | undefined> = [],
): Promise<T['$inferSelect'] | undefined> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.networkId, networkId), eq(table.id, id), ...conditions));
  const [row] = lock ? await query.for(lock) : await query;
  return row as T['$inferSelect'] | undefined;
}
