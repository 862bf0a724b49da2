import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** The Postgres server tests create their databases on (DATABASE_URL's server, or the local one). */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A fresh, empty database for one test run; `drop()` removes it. */
export async function createTestDatabase(label = 'test'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `ans_${label}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(ADMIN_URL, name),
    async drop() {
      const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
