import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '@/db/migrate';
import { createTestDatabase } from './support/database';

describe('migrations', () => {
  it('two processes migrating a fresh database at once both succeed, each migration applied once', async () => {
    const db = await createTestDatabase('mig', { empty: true });
    try {
      await Promise.all([migrateDatabase(db.url), migrateDatabase(db.url), migrateDatabase(db.url)]);
      const sql = postgres(db.url, { max: 1 });
      try {
        const applied = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
        const journal = (await import('@/db/migrations/meta/_journal.json', { with: { type: 'json' } })).default;
        expect(applied[0]!.n).toBe(journal.entries.length);
        const tables = await sql`select table_name from information_schema.tables where table_schema = 'public'`;
        expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['networks', 'api_keys', 'events']));
        const worker = await sql`select count(*)::int as n from information_schema.schemata where schema_name = 'graphile_worker'`;
        expect(worker[0]!.n).toBe(1);
        const unlogged = await sql`select relpersistence from pg_class where relname = 'rate_limit_buckets'`;
        expect(unlogged[0]!.relpersistence).toBe('u');
      } finally {
        await sql.end();
      }
    } finally {
      await db.drop();
    }
  });
});
