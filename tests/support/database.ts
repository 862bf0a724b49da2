import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
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

/** A fresh, empty database for one test run; `drop()` removes it. */
export async function createTestDatabase(label = 'test'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `ans_${label}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(adminUrl(), name),
    async drop() {
      const a = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
