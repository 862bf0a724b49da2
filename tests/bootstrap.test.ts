import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, generateApiKeyToken } from '@/server/auth/tokens';
import { api } from './support/api';
import { createTestDatabase } from './support/database';
import { until } from './support/until';
import { API_ONLY, ROOT, startServerProcess } from './support/server-process';

describe('bootstrap and the operator CLI', () => {
  it('prints one super_user token on the first start of an empty database, and never again', async () => {
    const db = await createTestDatabase('boot');
    try {
      const first = await startServerProcess({ ...API_ONLY, DATABASE_URL: db.url, WORKER: 'off' });
      const printed = first.output().match(/sk_test_[0-9A-Za-z]{40}/g) ?? [];
      await first.stop();
      expect(printed).toHaveLength(1);
      const token = printed[0]!;

      const second = await startServerProcess({ ...API_ONLY, DATABASE_URL: db.url, WORKER: 'off' });
      try {
        expect(second.output()).not.toMatch(/sk_test_[0-9A-Za-z]{40}/);
        const me = await api<{ super_user: boolean }>('GET', '/me', { token, baseUrl: second.url });
        expect(me.status).toBe(200);
        expect(me.body.super_user).toBe(true);
        // The token never appears in the request logs.
        expect(second.output()).not.toContain(token);
      } finally {
        await second.stop();
      }
    } finally {
      await db.drop();
    }
  });

  it('registers BOOTSTRAP_SUPERUSER_TOKEN once and prints no other token', async () => {
    const db = await createTestDatabase('boot');
    const token = generateApiKeyToken('test');
    try {
      for (let run = 0; run < 2; run++) {
        const server = await startServerProcess({ ...API_ONLY, DATABASE_URL: db.url, WORKER: 'off', BOOTSTRAP_SUPERUSER_TOKEN: token });
        try {
          expect(server.output()).not.toMatch(/sk_test_[0-9A-Za-z]{40}/);
          expect((await api('GET', '/me', { token, baseUrl: server.url })).status).toBe(200);
        } finally {
          await server.stop();
        }
      }
    } finally {
      await db.drop();
    }
  });

  it('in live mode, the first start of an empty database makes and prints no key, and says how to make one (G12)', async () => {
    const db = await createTestDatabase('bootlive');
    const live = { APP_ENV: 'live', APP_SECRET_KEY: 'live-mode-secret-key-for-this-test-only', SMTP_URL: 'smtp://127.0.0.1:9' };
    try {
      const server = await startServerProcess({ ...API_ONLY, ...live, DATABASE_URL: db.url, WORKER: 'off' });
      try {
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
        const result = spawnSync('npm', ['run', '--silent', 'cli', '--', 'create-key', '--super-user', '--name', 'ops'], {
          cwd: ROOT,
          env: { ...process.env, ...live, DATABASE_URL: db.url },
          encoding: 'utf8',
        });
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/^sk_live_[0-9A-Za-z]{40}\n$/);
        const me = await api<{ key_name: string }>('GET', '/me', { token: result.stdout.trim(), baseUrl: server.url });
        expect(me.body.key_name).toBe('ops');
        // …and the only one: the start made none.
        const keys = await api<{ items: Array<{ key_name: string }> }>('GET', '/apikeys', { token: result.stdout.trim(), baseUrl: server.url });
        expect(keys.body.items.map((k) => k.key_name)).toEqual(['ops']);
      } finally {
        await server.stop();
      }
    } finally {
      await db.drop();
    }
  }, 120_000);

  it('npm run cli -- create-key --super-user --name NAME prints only a working token', async () => {
    const db = await createTestDatabase('cli');
    try {
      const result = spawnSync('npm', ['run', '--silent', 'cli', '--', 'create-key', '--super-user', '--name', 'ops laptop'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url },
        encoding: 'utf8',
      });
      expect(result.status).toBe(0);
      const stdout = result.stdout;
      expect(stdout).toMatch(/^sk_test_[0-9A-Za-z]{40}\n$/);
      const token = stdout.trim();
      expect(API_KEY_PATTERN.test(token)).toBe(true);

      const server = await startServerProcess({ ...API_ONLY, DATABASE_URL: db.url, WORKER: 'off' });
      try {
        // The database already had a key, so the first start printed none.
        expect(server.output()).not.toMatch(/sk_test_[0-9A-Za-z]{40}/);
        const me = await api<{ key_name: string; super_user: boolean }>('GET', '/me', { token, baseUrl: server.url });
        expect(me.body).toMatchObject({ key_name: 'ops laptop', super_user: true });
      } finally {
        await server.stop();
      }
    } finally {
      await db.drop();
    }
  }, 120_000);

  it('the CLI refuses a missing name with a usage message', () => {
    const result = spawnSync('npm', ['run', '--silent', 'cli', '--', 'create-key', '--super-user'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--name is required/);
  });
});
