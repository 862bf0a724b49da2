/**
 * `npm start` as a person or a process manager runs it: through npm, on the
 * embedded Postgres (no DATABASE_URL), stopped by a signal to whichever
 * process gets it. npm is the outermost process; the signal must reach the
 * service, the service must stop Postgres itself (last), and nothing may be
 * left running.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '@/scripts/node-flags';
import { api } from './support/api';
import { freePort, ROOT } from './support/server-process';

const pinnedNode = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: { node: string } }).dependencies.node;
const dataDir = mkdtempSync(path.join(tmpdir(), 'ans-npm-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function npmStart(env: Record<string, string>) {
  // detached: its own process group, as a terminal's foreground job is, so the test can signal
  // the whole group like Ctrl-C does.
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  /** Whatever happened in the test, leave nothing running (the group: npm and the service). */
  const cleanUp = async () => {
    if (npm.exitCode !== null || npm.signalCode !== null) return;
    process.kill(-npm.pid!, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 150_000;
  while (!output.includes('Ad network service ready on')) {
    if (npm.exitCode !== null || Date.now() > deadline) {
      await cleanUp();
      throw new Error(`npm start did not get ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { npm, exited, cleanUp, output: () => output };
}

/** Lines the service logged at error level or above (pino: 50 error, 60 fatal). */
const errorLines = (output: string) => output.split('\n').filter((line) => /"level":(5|6)0\b/.test(line));

const postgresOfDataDir = () =>
  spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((args) => args.includes(`-D ${path.join(dataDir, 'pg')}`));

describe('npm start stops cleanly whichever process gets the signal', () => {
  const cases = [
    { name: 'SIGTERM to npm (a process manager)', signal: 'SIGTERM', group: false },
    { name: 'SIGINT to npm', signal: 'SIGINT', group: false },
    { name: 'Ctrl-C (SIGINT to the whole foreground group)', signal: 'SIGINT', group: true },
  ] as const;

  for (const { name, signal, group } of cases) {
    it(
      name,
      async () => {
        const port = await freePort();
        const service = await npmStart({ PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) });
        const baseUrl = `http://127.0.0.1:${port}`;
        try {
          // Runs on the Node the project pins, not the machine's.
          expect(service.output()).toContain(`Node v${pinnedNode}`);
          expect((await fetch(`${baseUrl}/v1/openapi.json`)).status).toBe(200);

          process.kill(group ? -service.npm.pid! : service.npm.pid!, signal);
          expect(await service.exited).toBe(0);
        } finally {
          await service.cleanUp();
        }
        // The log (buffered until the end) says it too.
        expect(service.output()).toMatch(new RegExp(`"node":"v${pinnedNode.replaceAll('.', '\\.')}"`));
        // …with the service's Node flags (scripts/node-flags.ts), as package.json's start script passes them.
        expect(service.output()).toContain(`"nodeFlags":${JSON.stringify(SERVICE_NODE_FLAGS)}`);
        expect(service.output()).not.toContain('started without');
        expect(service.output()).toContain(`Ad network service stopped (${signal})`);
        expect(errorLines(service.output())).toEqual([]);
        // Postgres was shut down by the service (a clean shutdown removes its pid file), nothing orphaned.
        expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
        expect(postgresOfDataDir()).toEqual([]);
        await expect(fetch(`${baseUrl}/v1/openapi.json`)).rejects.toThrow();
      },
      200_000,
    );
  }
});

describe('npm run cli beside a running npm start', () => {
  it('creates a working super_user key on the embedded Postgres the service runs', async () => {
    const port = await freePort();
    const service = await npmStart({ PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) });
    try {
      const cli = spawnSync('npm', ['run', '--silent', 'cli', '--', 'create-key', '--super-user', '--name', 'beside'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir },
        encoding: 'utf8',
      });
      expect(cli.status, cli.stderr).toBe(0);
      expect(cli.stdout).toMatch(/^sk_test_[0-9A-Za-z]{40}\n$/);
      const me = await api<{ key_name: string; super_user: boolean }>('GET', '/me', {
        token: cli.stdout.trim(),
        baseUrl: `http://127.0.0.1:${port}`,
      });
      expect(me.body).toMatchObject({ key_name: 'beside', super_user: true });
      process.kill(service.npm.pid!, 'SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      await service.cleanUp();
    }
    // The CLI left the server to the service: the service stopped it, once.
    expect(errorLines(service.output())).toEqual([]);
    expect(postgresOfDataDir()).toEqual([]);
  }, 200_000);
});

describe('npm start with a setting that does not parse', () => {
  it('stops before doing anything, with a line naming the setting, instead of running on a default', () => {
    const untouched = mkdtempSync(path.join(tmpdir(), 'ans-bad-setting-'));
    try {
      const run = spawnSync('npm', ['start'], {
        cwd: ROOT,
        // LOG_LEVEL too: the logger exists before the configuration, and must not refuse it first.
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: untouched, WEBHOOK_TIMEOUT_MS: 'fast', LOG_LEVEL: 'loud' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/Failed to start: Invalid environment:\n {2}WEBHOOK_TIMEOUT_MS: /);
      expect(run.stderr).toMatch(/\n {2}LOG_LEVEL: /);
      expect(existsSync(path.join(untouched, 'pg'))).toBe(false);
    } finally {
      rmSync(untouched, { recursive: true, force: true });
    }
  });
});
