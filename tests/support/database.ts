import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { migrateDatabase } from '@/db/migrate';
import { LOCAL_ADMIN_URL } from './test-postgres';

/**
 * The Postgres server tests create their databases on: the one the run chose
 * (tests/support/test-postgres.ts puts it in TEST_DATABASE_ADMIN_URL), or the local one.
 */
export const adminUrl = () => process.env.TEST_DATABASE_ADMIN_URL ?? LOCAL_ADMIN_URL;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function asAdmin(statement: string): Promise<void> {
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test run; `drop()` removes it. When the run made a migrated template
 * (`provideMigratedTemplate`, which the global setups call), it is a copy of that — the schema a
 * starting service would make, in a third of the time — unless `empty` asks for a database with
 * nothing in it (a test of migrating itself). Starting a service on either migrates what is left.
 */
export async function createTestDatabase(label = 'test', { empty = false }: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `ans_${label}_${randomBytes(4).toString('hex')}`;
  const template = empty ? undefined : process.env.TEST_DATABASE_TEMPLATE;
  await asAdmin(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  return { name, url: withDatabase(adminUrl(), name), drop: () => asAdmin(`drop database if exists "${name}" with (force)`) };
}

/**
 * Migrates one database of this run to the current schema (ours and graphile-worker's) and names it
 * in TEST_DATABASE_TEMPLATE, so that `createTestDatabase` in this process and in every process it
 * starts later (vitest's workers, the services they start) copies it instead of migrating anew.
 * Nothing may stay connected to a template, so this closes its connection before it returns.
 */
export async function provideMigratedTemplate(): Promise<TestDatabase> {
  const template = await createTestDatabase('template', { empty: true });
  try {
    await migrateDatabase(template.url);
  } catch (error) {
    await template.drop();
    throw error;
  }
  process.env.TEST_DATABASE_TEMPLATE = template.name;
  return {
    ...template,
    async drop() {
      delete process.env.TEST_DATABASE_TEMPLATE;
      await template.drop();
    },
  };
}
