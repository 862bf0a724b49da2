import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { API_ONLY, ROOT, startServerProcess, type ServerProcess } from './server-process';
import { SHARED_SERVICE_LIMITS } from './shared-limits';

/**
 * The scale-out README.md documents, on one machine: two web processes on one database. The
 * first is the run's shared service (tests/support/global-setup.ts: `npm start`); the second is
 * started here as `WORKER=off npm start` on the same database with the same bootstrap token — one
 * process start per test file rather than two. For the tests that race credential operations
 * through both (tests/reliability/credential-races.test.ts, …/credentials-interleaved.test.ts).
 */
export interface WebPair {
  /** The two processes' base URLs; a request raced "through the other process" goes to the other one. */
  urls: readonly [string, string];
  /** The public origin both serve (PUBLIC_URL: one site behind a balancer), where a passkey is made and used. */
  origin: string;
  /** The operator's bootstrap super_user token (BOOTSTRAP_SUPERUSER_TOKEN of both). */
  superToken: string;
  /** A connection of the test's own to that database, for what only the database can tell. */
  sql: postgres.Sql;
  stop(): Promise<void>;
}

export async function startWebPair(label: string): Promise<WebPair> {
  const superToken = inject('superToken');
  // Both processes are one site (PUBLIC_URL), as behind the balancer README.md describes: the first's.
  const document = (await (await fetch(`${inject('baseUrl')}/v1/openapi.json`)).json()) as { servers: Array<{ url: string }> };
  const origin = new URL(document.servers[0]!.url).origin;
  const second: ServerProcess = await startServerProcess(
    {
      ...API_ONLY,
      DATABASE_URL: inject('databaseUrl'),
      BOOTSTRAP_SUPERUSER_TOKEN: superToken,
      WORKER: 'off',
      PUBLIC_URL: origin,
      // As the shared service's (global-setup.ts): the races fire a hundred requests with one key, and count
      // on refused keys answering 401 — neither a rate limit, nor the lockout, nor a quota may answer.
      ...SHARED_SERVICE_LIMITS,
    },
    path.join(ROOT, 'test-results', `${label}-second-web-process.log`),
  );
  const sql = postgres(inject('databaseUrl'), { max: 2, onnotice: () => {} });
  return {
    urls: [inject('baseUrl'), second.url],
    origin,
    superToken,
    sql,
    async stop() {
      await sql.end({ timeout: 5 });
      await second.stop();
    },
  };
}

/**
 * The pair for the tests of one file: started before them (a process start takes a while) and
 * stopped after them. Read it inside a test; it is there from the first one on.
 */
export function useWebPair(label: string): Omit<WebPair, 'stop'> {
  let started: WebPair | undefined;
  beforeAll(async () => {
    started = await startWebPair(label);
  }, 200_000);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get urls() {
      return started!.urls;
    },
    get origin() {
      return started!.origin;
    },
    get superToken() {
      return started!.superToken;
    },
    get sql() {
      return started!.sql;
    },
  };
}

/**
 * Transactions as Postgres orders their commits. `commitsSoFar()` right after an answer arrives
 * names every transaction committed by then; `committedAfter` later tells which rows were
 * inserted by a transaction that was not — that committed after the answer. Exact, unlike
 * timestamps (`now()` is a transaction's start, not its commit).
 */
export async function commitsSoFar(sql: postgres.Sql): Promise<string> {
  const [row] = await sql<{ snapshot: string }[]>`select pg_current_snapshot()::text as snapshot`;
  return row!.snapshot;
}

/**
 * The ids of the rows of `table` with `column = value` whose inserting transaction is not
 * visible in `snapshot` (from commitsSoFar). A row's `xmin` is a 32-bit xid; its epoch is
 * restored from the current full xid (a live row's xmin is never older than 2^31 transactions).
 * Only meaningful for rows not updated since they were inserted (an update sets a new xmin), and
 * written outside savepoints: the snapshot lists top-level transactions only, so a row written in a
 * subtransaction still running would count as committed before (the service's writes use none).
 */
export async function committedAfter(sql: postgres.Sql, snapshot: string, table: string, column: string, value: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select t.id
    from ${sql(table)} t, (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as next) n
    where t.${sql(column)} = ${value}
      and not pg_visible_in_snapshot((n.next - (n.next - t.xmin::text::bigint) % 4294967296)::text::xid8, ${snapshot}::pg_snapshot)
    order by t.id`;
  return rows.map((r) => r.id);
}

/** A /v1 error answer in the envelope: application/problem+json, {type, title, status, detail[, errors]}, status as sent. */
export function inEnvelope(answer: { status: number; headers: Headers; body: unknown }): boolean {
  if (!/^application\/problem\+json/.test(answer.headers.get('content-type') ?? '')) return false;
  const body = answer.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return false;
  const keys = Object.keys(body)
    .filter((k) => k !== 'errors')
    .sort();
  return (
    JSON.stringify(keys) === JSON.stringify(['detail', 'status', 'title', 'type']) &&
    body.status === answer.status &&
    typeof body.type === 'string' &&
    /\/errors\/[a-z-]+$/.test(body.type) &&
    typeof body.detail === 'string'
  );
}
