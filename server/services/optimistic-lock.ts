import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Queryable } from '@/db/client';
import { conflict, type AppError } from '@/server/errors';

/**
 * Optimistic locking, the service side: the version a write is conditional on —
 * the one the client expects (If-Match or body `version`), else the one just
 * read. A client version that is already stale is a 409 before any write.
 */
export function versionToWrite(what: string, current: number, expected: number | undefined): number {
  const version = expected ?? current;
  if (version !== current) throw conflict(`${what} was modified (version ${current}, you sent ${version}). Re-fetch and retry.`);
  return version;
}

/** The 409 when the conditional update (`… where version = $v`) matched no row. */
export function modifiedConcurrently(what: string): AppError {
  return conflict(`${what} was modified concurrently. Re-fetch and retry.`);
}

/** A table whose rows carry the optimistic-lock columns. */
type VersionedTable = PgTable & { version: AnyPgColumn; updatedAt: AnyPgColumn };

/**
 * A tenant table (one with `network_id`) is updated only within a named network: the update
 * filters by it, so a row of another network can never match, and every statement names the
 * network it touches (the shard key of the Citus plan, docs/SCALING.md).
 */
type Tenancy<T> = T extends { networkId: AnyPgColumn } ? { networkId: string | typeof EVERY_NETWORK } : { networkId?: never };

/** A sweep across networks on purpose (a cron): the one tenant update that names no network. */
export const EVERY_NETWORK = Symbol('every network');

/**
 * The one update of a versioned row: writes `set` plus `version = version + 1` and
 * `updated_at = now()`, where `where` holds, in `networkId` for a tenant table, and — given
 * `version`, the one read or sent — the row is still at that version. Chain `.returning()`: no
 * row back means another write came first (`modifiedConcurrently`), or `where` no longer holds.
 * Without `version` the caller guards the row otherwise (a row lock, or a state in `where`).
 */
export function updateVersioned<T extends VersionedTable>({
  tx,
  table,
  set,
  where,
  version,
  networkId,
}: {
  tx: Queryable;
  table: T;
  set: PgUpdateSetSource<T>;
  where: SQL | undefined;
  version?: number;
} & Tenancy<T>) {
  const bump = { version: sql`${table.version} + 1`, updatedAt: sql`now()` } as PgUpdateSetSource<T>;
  const tenant =
    networkId === undefined || networkId === EVERY_NETWORK ? undefined : eq((table as unknown as { networkId: AnyPgColumn }).networkId, networkId);
  return tx
    .update(table)
    .set({ ...set, ...bump })
    .where(and(tenant, where, version === undefined ? undefined : eq(table.version, version)));
}
