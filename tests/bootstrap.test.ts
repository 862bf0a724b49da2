import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, generateApiKeyToken } from '@/server/auth/tokens';
import { api } from './support/api';
import { createTestDatabase, type TestDatabase } from './support/database';
import { until } from './support/until';
import { API_ONLY, ROOT, startServerProcess, type ServerProcess } from './support/server-process';

const PRINTED_TEST_KEY = /sk_test_[0-9A-Za-z]{40}/;

/** A database of the test's own (the run's migrated template), dropped whatever `use` does. */
async function withDatabase(label: string, use: (db: TestDatabase) => Promise<void>): Promise<void> {
  const db = await createTestDatabase(label);
  try {
    await use(db);
  } finally {
    await db.drop();
  }
}

/** The service on `db` (API only, no worker), stopped whatever `use` does. */
async function withService(db: TestDatabase, env: Record<string, string>, use: (server: ServerProcess) => Promise<void>): Promise<void> {
  const server = await startServerProcess({ ...API_ONLY, ...env, DATABASE_URL: db.url, WORKER: 'off' });
  try {
    await use(server);
  } finally {
    await server.stop();
  }
}

/**
 * `npm run cli -- create-key --super-user …`, as the operator types it: its exit status and output.
 * Not spawnSync: that would hold this worker's event loop, and with it the tests running beside.
 */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', 'create-key', '--super-user', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Each test has a database of its own (or none), so they run at once (`describe.concurrent`): their
 * time is services and the CLI starting (some 6 s of CPU each), one after another on one core
 * before. At once they share the cores, so each may take longer: every test has 180 s.
 */
describe.concurrent('bootstrap and the operator CLI', () => {
  it('prints one super_user token on the first start of an empty database, and never again', { timeout: 180_000 }, () =>
    withDatabase('boot', async (db) => {
      let printed: string[] = [];
      await withService(db, {}, async (first) => {
        printed = first.output().match(new RegExp(PRINTED_TEST_KEY, 'g')) ?? [];
      });
      expect(printed).toHaveLength(1);
      const token = printed[0]!;

      await withService(db, {}, async (second) => {
        expect(second.output()).not.toMatch(PRINTED_TEST_KEY);
        const me = await api<{ super_user: boolean }>('GET', '/me', { token, baseUrl: second.url });
        expect(me.status).toBe(200);
        expect(me.body.super_user).toBe(true);
        // The token never appears in the request logs.
        expect(second.output()).not.toContain(token);
      });
    }),
  );

  it('registers BOOTSTRAP_SUPERUSER_TOKEN once and prints no other token', { timeout: 180_000 }, () =>
    withDatabase('boot', async (db) => {
      const token = generateApiKeyToken('test');
      for (let run = 0; run < 2; run++) {
        await withService(db, { BOOTSTRAP_SUPERUSER_TOKEN: token }, async (server) => {
          expect(server.output()).not.toMatch(PRINTED_TEST_KEY);
          expect((await api('GET', '/me', { token, baseUrl: server.url })).status).toBe(200);
        });
      }
    }),
  );

  it(
    'in live mode, the first start of an empty database makes and prints no key, and says how to make one (G12)',
    () =>
      withDatabase('bootlive', async (db) => {
        const live = { APP_ENV: 'live', APP_SECRET_KEY: 'live-mode-secret-key-for-this-test-only', SMTP_URL: 'smtp://127.0.0.1:9' };
        await withService(db, live, async (server) => {
          expect(server.output()).not.toMatch(/sk_(test|live)_[0-9A-Za-z]{40}/);
          // The log line says what to do (logs are written in the background: wait for it).
          const advice = await until(() =>
            server
              .output()
              .split('\n')
              .find((line) => line.includes('No API key exists')),
          );
          expect(advice).toContain('BOOTSTRAP_SUPERUSER_TOKEN');
          expect(advice).toContain('npm run cli -- create-key --super-user --name NAME');
          expect(server.output()).not.toMatch(/sk_(test|live)_[0-9A-Za-z]{40}/);

          // The CLI's key (sk_live_, printed on the operator's terminal) is the first, and works.
          const result = await cli(['--name', 'ops'], { ...live, DATABASE_URL: db.url });
          expect(result.status).toBe(0);
          expect(result.stdout).toMatch(/^sk_live_[0-9A-Za-z]{40}\n$/);
          const me = await api<{ key_name: string }>('GET', '/me', { token: result.stdout.trim(), baseUrl: server.url });
          expect(me.body.key_name).toBe('ops');
          // …and the only one: the start made none.
          const keys = await api<{ items: Array<{ key_name: string }> }>('GET', '/apikeys', { token: result.stdout.trim(), baseUrl: server.url });
          expect(keys.body.items.map((k) => k.key_name)).toEqual(['ops']);
        });
      }),
    180_000,
  );

  it(
    'npm run cli -- create-key --super-user --name NAME prints only a working token',
    () =>
      withDatabase('cli', async (db) => {
        const result = await cli(['--name', 'ops laptop'], { DATABASE_URL: db.url });
        expect(result.status).toBe(0);
        const stdout = result.stdout;
        expect(stdout).toMatch(/^sk_test_[0-9A-Za-z]{40}\n$/);
        const token = stdout.trim();
        expect(API_KEY_PATTERN.test(token)).toBe(true);

        await withService(db, {}, async (server) => {
          // The database already had a key, so the first start printed none.
          expect(server.output()).not.toMatch(PRINTED_TEST_KEY);
          const me = await api<{ key_name: string; super_user: boolean }>('GET', '/me', { token, baseUrl: server.url });
          expect(me.body).toMatchObject({ key_name: 'ops laptop', super_user: true });
        });
      }),
    180_000,
  );

  it('the CLI refuses a missing name with a usage message', { timeout: 180_000 }, async () => {
    const result = await cli([]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--name is required/);
  });
});
