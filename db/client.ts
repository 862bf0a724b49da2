import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';

/**
 * Drizzle without the schema: we build queries from the tables themselves and never use its
 * relational `db.query.*` API — which, given the schema, builds a query builder per table for
 * every handle, so for every transaction (~2 % of a keyed POST's CPU; docs/PERFORMANCE.md,
 * "/v1 at the speed of a bare server").
 */
export type Database = PostgresJsDatabase;
/** A transaction handle; services take one so that a change and its side effects commit together. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the pool or an open transaction: read helpers accept both. */
export type Queryable = Database | Tx;

export interface DbHandle {
  db: Database;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/**
 * Reconnect timing, so that a restarted or failed-over Postgres costs seconds,
 * not minutes (see docs/RELIABILITY.md, "Postgres restarted under load"):
 *  - postgres.js waits `backoff(n)` seconds before reconnecting a pool
 *    connection after the n-th error in a row, shared by the whole pool; its
 *    default grows as 3^n / 100 up to 20 s, so a dozen errors during a restart
 *    left queries queued on a closed connection for 10-20 s after Postgres was
 *    back. Capped at half a second here.
 *  - a connection attempt that gets no answer (a server shutting down accepts
 *    the TCP connection and may never reply) fails after 5 s, not 30.
 */
export const CONNECT_TIMEOUT_SECONDS = 5;
export const reconnectBackoff = (attempts: number): number => Math.min(0.05 * 2 ** attempts, 0.5);

export interface ConnectOptions {
  max?: number;
  /**
   * Named prepared statements (default). Off behind a transaction-pooling PgBouncer older than
   * 1.21: consecutive transactions of one client may run on different server connections, where a
   * statement prepared on another does not exist. Queries then go unnamed (parsed every time),
   * and one at a time per connection: no pipelining (see `max_pipeline` below).
   */
  prepare?: boolean;
}

/** Whether this process's queries are named prepared statements (the last `prepare` given to connect()). */
let preparing = true;
export const preparesStatements = (): boolean => preparing;

export function connect(url: string, options: ConnectOptions = {}): DbHandle {
  if (options.prepare !== undefined) preparing = options.prepare;
  const sql = postgres(url, {
    max: options.max ?? 10,
    prepare: options.prepare ?? true,
    // Behind a transaction pooler (prepare off), never a query sent while another is in flight:
    // an unnamed query with parameters starts with Parse/Describe/Flush (no Sync), and PgBouncer
    // 1.18 hands the server connection back at the previous query's ReadyForQuery and drops the
    // describe's answer — that query, and its pool connection, then wait forever
    // (tests/cluster/pgbouncer-pipeline.test.ts; found by `npm run bench:cluster`).
    ...(options.prepare === false ? { max_pipeline: 0 } : {}),
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    backoff: reconnectBackoff,
    onnotice: () => {},
    // Timestamps stay strings end to end only where we format them; Date is fine here.
    connection: { application_name: 'ad-network-service' },
  });
  const db = drizzle(preparedByDefault(sql));
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

type TransactionCallback = (inner: postgres.TransactionSql) => unknown;

/**
 * The callback, given the transaction's client wrapped as below. Made here, not written as a
 * function literal in `args[last] = …`: V8 allocates a function literal assigned to a property in
 * the old generation (until the code is optimized), and from there the closure kept each finished
 * transaction's callback, and the request it ran for, alive through every young collection
 * (docs/PERFORMANCE.md, "/v1 at the speed of a bare server").
 */
function givenPrepared(fn: TransactionCallback): TransactionCallback {
  return (inner) => fn(preparedByDefault(inner));
}

/**
 * Drizzle sends its queries through postgres.js's `unsafe()` with `prepare: false` (unless a
 * query is built with `.prepare(name)`), so Postgres parses and plans each one again, every time:
 * on the write path that was a third of the database's CPU per request (docs/PERFORMANCE.md,
 * "/v1 at the speed of a bare server").
 * Through this wrapper they are prepared statements, cached per connection by their text — as
 * postgres.js's own tagged templates always are. Drizzle's text is fixed per query shape (values
 * are parameters); shapes that vary (an `in (…)` list's length) add a statement each, dropped
 * with the connection (postgres.js retires connections after 30–60 min). Transactions and
 * savepoints hand the wrapped client to their callback, so queries in them are prepared too.
 */
function preparedByDefault<T extends postgres.Sql | postgres.TransactionSql>(client: T): T {
  const wrapLast = (args: unknown[]) => {
    const last = args.length - 1;
    const fn = args[last];
    if (typeof fn === 'function') args[last] = givenPrepared(fn as TransactionCallback);
    return args;
  };
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          method.call(target, query, parameters, { ...options, prepare: preparing });
      }
      if (property === 'begin' || property === 'savepoint') return (...args: unknown[]) => method.apply(target, wrapLast(args));
      return value;
    },
  });
}

/**
 * Error codes that mean "the database cannot be reached or is going away", not
 * "this query is wrong": the request may simply be retried a moment later.
 * Socket errors, postgres.js connection errors, and SQLSTATE class 08
 * (connection exception) and 57P01-57P03 (admin/crash shutdown, cannot connect now).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300', // too_many_connections: a restarting server's slots are briefly all taken
]);

/** The string `code`s of `error` and of its `cause` chain (TRPCError → DrizzleQueryError → PostgresError or a socket error), outermost first. */
function errorCodesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/** Whether `error` is the database being unavailable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return errorCodesOf(error).some((code) => UNAVAILABLE_CODES.has(code) || code.startsWith('08'));
}

/**
 * Whether `error` is Postgres giving up one of two transactions that clashed (a deadlock, or a
 * serialization failure): nothing is wrong with the request, and a retry is expected to work.
 */
export function isTransientConflict(error: unknown): boolean {
  return errorCodesOf(error).some((code) => code === '40P01' || code === '40001');
}

/** Whether `error` is a statement that gave up waiting for a lock (`lock_timeout`). */
export function isLockTimeout(error: unknown): boolean {
  return errorCodesOf(error).includes('55P03');
}

let handle: DbHandle | undefined;

/** Open the process-wide pool (called once at start, or by tests). */
export function openDatabase(url: string, options: ConnectOptions = {}): DbHandle {
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
 * The postgres.js client under a Drizzle handle, for a hot path's prepared
 * tagged templates (see sqlClient). With Drizzle's driver settings this client
 * returns timestamps as strings and takes json as text.
 */
export function postgresClientOf(db: Queryable): postgres.Sql {
  // A pool's handle carries its client; a Drizzle transaction's is its session's (the reserved connection).
  const client = (db as { $client?: postgres.Sql }).$client ?? (db as unknown as { session?: { client?: postgres.Sql } }).session?.client;
  if (!client) throw new Error('expected a postgres.js-backed database handle');
  return client;
}

/**
 * An open transaction presented as a Database, for code written against one
 * (services, `ctx.db`): its queries run in the transaction, `transaction(fn)`
 * runs `fn` inline in it (no savepoint: an error still rolls back the whole
 * transaction, and none of our services recovers from a failed statement), and
 * `postgresClientOf` gives the transaction's own postgres.js client, so
 * prepared tagged templates run in it too.
 *
 * It is the transaction object itself with `transaction` overridden, not a new
 * object whose prototype is the transaction: an object made a prototype gets a
 * map, and maps live in V8's old space until a full collection, so every young
 * collection kept each finished transaction — and the request that awaited it —
 * alive through that map and promoted it (~14 KB per keyed POST; docs/PERFORMANCE.md,
 * "/v1 at the speed of a bare server").
 */
export function transactionAsDatabase(tx: Tx): Database {
  // Configurable, so that a second call on the same transaction redefines it rather than throwing.
  Object.defineProperty(tx, 'transaction', { value: <T>(fn: (inner: Tx) => Promise<T>): Promise<T> => fn(tx), configurable: true });
  inline.add(tx);
  return tx as unknown as Database;
}

const inline = new WeakSet<object>();

/** Whether `db` is a transaction presented as a database (its `transaction` runs inline, in it). */
export function isInlineTransaction(db: Queryable | Database): boolean {
  return inline.has(db);
}

export async function closeDatabase(): Promise<void> {
  const h = handle;
  handle = undefined;
  await h?.close();
}
