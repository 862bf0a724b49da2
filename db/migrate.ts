import { fileURLToPath } from 'node:url';
import path from 'node:path';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations as runWorkerMigrations } from 'graphile-worker';

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any constant works; it only has to be the same in every process of this service. */
const MIGRATION_LOCK_ID = 7_242_031_001;

/**
 * Bring the database to the current schema: our tables (drizzle-kit migrations)
 * and graphile-worker's own schema, so that a web-only process can enqueue jobs.
 * Runs under a session advisory lock on a dedicated connection: two processes
 * starting together apply each migration once, the second waits and finds nothing to do.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });
      await runWorkerMigrations({ connectionString: url, logger: silentWorkerLogger() });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function silentWorkerLogger(): Logger {
  // graphile-worker narrates its migrations; keep start-up quiet but keep errors.
  return new Logger(() => (level, message) => {
    if (level === 'error') console.error(message);
  });
}
