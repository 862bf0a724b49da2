/**
 * The Postgres server a test run creates its databases on, decided once per run
 * (by `npm test`, or by the global setup of a vitest or Playwright run started
 * alone) and handed to every process of the run through the environment:
 *
 *  1. TEST_DATABASE_ADMIN_URL, when set;
 *  2. else the local server on 127.0.0.1:5432, when it lets user `postgres` in;
 *  3. else an embedded Postgres — db/embedded.ts, the code `npm start` runs — in a
 *     temporary folder on a free port. It is stopped and its folder removed when
 *     the run ends; a small guard process does the same when the run is
 *     interrupted (Ctrl-C, SIGTERM) or killed, so nothing is left behind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '@/db/embedded';
import { freePort } from './free-port';

export const LOCAL_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestPostgres {
  adminUrl: string;
  /** The embedded server this call started (which `stop()` stops and removes), if it did. */
  embedded?: { pid: number; dataDir: string };
  stop(): Promise<void>;
}

/** Why the local server cannot be used, or undefined when it can. */
async function localServerProblem(): Promise<string | undefined> {
  const sql = postgres(LOCAL_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ECONNREFUSED' ? 'no server on 127.0.0.1:5432' : `127.0.0.1:5432 refused user postgres (${code ?? String(error)})`;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/**
 * Stops the server and removes its folder once `owner` is gone, however it went. Plain
 * JavaScript run by `node -e`: it must not depend on the process it outlives.
 */
const GUARD = `
const [owner, server, dir] = process.argv.slice(1);
const fs = require('node:fs');
const alive = (pid) => {
  try { process.kill(Number(pid), 0); } catch (e) { return e.code === 'EPERM'; }
  try { return !/^\\S+ \\(.*\\) [ZX]/s.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8')); } catch { return true; }
};
const signal = (pid, sig) => { try { process.kill(Number(pid), sig); } catch {} };
const watch = setInterval(() => {
  if (alive(owner)) return;
  clearInterval(watch);
  signal(server, 'SIGINT');
  const deadline = Date.now() + 30000;
  const wait = setInterval(() => {
    if (alive(server) && Date.now() < deadline) return;
    clearInterval(wait);
    if (alive(server)) signal(server, 'SIGQUIT');
    setTimeout(() => { fs.rmSync(dir, { recursive: true, force: true }); process.exit(0); }, 500);
  }, 200);
}, 500);
`;

export async function provideTestPostgres(
  options: { log?: (line: string) => void; /** tests of this module: as if 5432 had no server */ ignoreLocal?: boolean } = {},
): Promise<TestPostgres> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const given = process.env.TEST_DATABASE_ADMIN_URL;
  if (given) return { adminUrl: given, stop: async () => {} };
  const problem = options.ignoreLocal ? 'the local server ignored' : await localServerProblem();
  if (!problem) {
    process.env.TEST_DATABASE_ADMIN_URL = LOCAL_ADMIN_URL;
    return { adminUrl: LOCAL_ADMIN_URL, stop: async () => {} };
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'ans-test-postgres-'));
  const port = await freePort();
  let server;
  try {
    server = await startEmbeddedPostgres({ dataDir, port, database: 'postgres' });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const guard = spawn(process.execPath, ['-e', GUARD, String(process.pid), String(server.pid), dataDir], { detached: true, stdio: 'ignore' });
  guard.unref();
  log(`Tests use an embedded Postgres on 127.0.0.1:${port} (${problem}; set TEST_DATABASE_ADMIN_URL to use another server).`);
  process.env.TEST_DATABASE_ADMIN_URL = server.url;
  let stopping: Promise<void> | undefined;
  return {
    adminUrl: server.url,
    embedded: { pid: server.pid, dataDir },
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        guard.kill();
        rmSync(dataDir, { recursive: true, force: true });
        if (process.env.TEST_DATABASE_ADMIN_URL === server.url) delete process.env.TEST_DATABASE_ADMIN_URL;
      })()),
  };
}
