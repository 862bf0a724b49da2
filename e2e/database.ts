/**
 * The throw-away database of an e2e run, on E2E_DATABASE_ADMIN_URL's server, else the
 * run's (TEST_DATABASE_ADMIN_URL: `npm test`'s, or the one e2e/serve.ts chose).
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { LOCAL_ADMIN_URL } from '@/tests/support/test-postgres';

const adminUrl = () => process.env.E2E_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? LOCAL_ADMIN_URL;

const NAME = /^e2e_(\d{10})_[0-9a-f]{8}$/;

/** `e2e_<unix seconds>_<random>`: unique per run, and its age is readable from the name. */
export function newDatabaseName(): string {
  return `e2e_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(adminUrl(), { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function checkedName(name: string): string {
  if (!NAME.test(name)) throw new Error(`Refusing to touch database "${name}": not an e2e database name.`);
  return name;
}

export async function createDatabase(name: string): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`create database "${checkedName(name)}"`));
}

/**
 * Wait until no session is connected to the database (the service has closed
 * its pools), up to `timeoutMs`. Returns whether it got there.
 */
export async function waitUntilUnused(name: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  return withAdmin(async (sql) => {
    for (;;) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity where datname = ${checkedName(name)} and pid <> pg_backend_pid()`;
      if (!row || row.n === 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
}

/** Drop the database, ending any session still connected to it. */
export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((sql) => sql.unsafe(`drop database if exists "${checkedName(name)}" with (force)`));
}

/** Drop databases of earlier runs that never reached their teardown (killed runs), once they are a day old. */
export async function dropStaleDatabases(maxAgeSeconds = 24 * 3600): Promise<string[]> {
  const cutoff = Date.now() / 1000 - maxAgeSeconds;
  return withAdmin(async (sql) => {
    const rows = await sql<{ datname: string }[]>`select datname from pg_database where datname like 'e2e\\_%'`;
    const stale = rows.map((r) => r.datname).filter((n) => NAME.test(n) && Number(NAME.exec(n)![1]) < cutoff);
    for (const name of stale) await sql.unsafe(`drop database if exists "${name}" with (force)`);
    return stale;
  });
}
