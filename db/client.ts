import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema';

export type Database = PostgresJsDatabase<typeof schema>;
/** A transaction handle; services take one so that a change and its side effects commit together. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the pool or an open transaction: read helpers accept both. */
export type Queryable = Database | Tx;

export interface DbHandle {
  db: Database;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export function connect(url: string, options: { max?: number } = {}): DbHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Timestamps stay strings end to end only where we format them; Date is fine here.
    connection: { application_name: 'ad-network-service' },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

let handle: DbHandle | undefined;

/** Open the process-wide pool (called once at start, or by tests). */
export function openDatabase(url: string, options: { max?: number } = {}): DbHandle {
  if (handle) throw new Error('database already open');
  handle = connect(url, options);
  return handle;
}

export function database(): Database {
  if (!handle) throw new Error('database not open: call openDatabase() first');
  return handle.db;
}

/**
 * The postgres.js client under Drizzle, for the per-request hot path: its
 * tagged templates are prepared statements (one round trip, planned once per
 * connection), while Drizzle's unprepared queries cost a describe round trip
 * and a fresh plan every time. Drizzle builders get the same with `.prepare(name)`.
 */
export function sqlClient(): postgres.Sql {
  if (!handle) throw new Error('database not open: call openDatabase() first');
  return handle.sql;
}

/**
 * A prepared query built once per pool: `build` runs on first use with this
 * database, later calls reuse the statement (values go in as placeholders).
 * Use it for queries on the request path whose SQL text must not vary.
 */
export function preparedQuery<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let query = cache.get(db);
    if (query === undefined) {
      query = build(db);
      cache.set(db, query);
    }
    return query;
  };
}

export async function closeDatabase(): Promise<void> {
  const h = handle;
  handle = undefined;
  await h?.close();
}
