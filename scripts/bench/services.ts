/**
 * The processes a benchmark measures: the service started as a user starts it
 * (`node <flags> --import tsx scripts/start.ts`: what `npm start` runs, its flags from
 * scripts/node-flags.ts, so the child's pid IS the server) and the baseline (baseline.ts, on
 * Node's default flags), each logging to files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { freePort } from '@/scripts/free-port';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { log } from '@/scripts/bench/format';
import { databaseUrl } from '@/scripts/bench/seed';
import { POOL_MAX, RATE_LIMIT, root } from '@/scripts/bench/settings';
import { SERVICE_NODE_FLAGS } from '@/scripts/node-flags';
import { everyRequestBudget } from '@/tests/support/shared-limits';

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  url: string;
  outLog: string;
  errLog: string;
  exited: Promise<number | null>;
  exitCode?: number | null;
}

/**
 * The service's environment in every benchmark: production, default logging, the pool size of the
 * baseline (BENCH_POOL_MAX), `token` as its super_user key, and rate limits (per key, owner and
 * network) so generous that the limiters run on every request but never refuse one; `extra` last.
 */
export function serviceEnvironment(dbUrl: string, token: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: dbUrl,
    DATABASE_POOL_MAX: String(POOL_MAX),
    HOST: '127.0.0.1',
    BOOTSTRAP_SUPERUSER_TOKEN: token,
    ...everyRequestBudget(RATE_LIMIT),
    ...extra,
  };
}

/** Listens on 127.0.0.1, on a free port; its URL, and a close that also drops kept-alive connections. */
export function listenOnLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/**
 * A benchmark's webhook endpoint on 127.0.0.1: a request to a path under `/hang` is read and never
 * answered (counted in `hanging`, until its connection closes); any other is answered 200 once
 * `receive` has its JSON body and when it arrived (`performance.now()`).
 */
export async function startBenchEndpoint(receive: (body: unknown, at: number) => void) {
  const hanging = { requests: 0, open: 0, maxOpen: 0 };
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/hang')) {
      hanging.requests++;
      hanging.open++;
      hanging.maxOpen = Math.max(hanging.maxOpen, hanging.open);
      req.resume();
      req.socket.once('close', () => hanging.open--);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        receive(JSON.parse(Buffer.concat(chunks).toString('utf8')), at);
      } catch {
        // not a delivery
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 5_000;
  const { url, close } = await listenOnLoopback(server);
  return { url, hanging, close };
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Runs `script` under tsx with `env`; stdout and stderr go to `<name>.stdout.log` / `.stderr.log` in `logDir`. */
function startChild(name: string, script: string, env: NodeJS.ProcessEnv, port: number, logDir: string, nodeArgs: string[] = []): Child {
  const outLog = path.join(logDir, `${name}.stdout.log`);
  const errLog = path.join(logDir, `${name}.stderr.log`);
  const out = openSync(outLog, 'a');
  const err = openSync(errLog, 'a');
  // The service runs with the flags `npm start` gives it (scripts/node-flags.ts), then any of the benchmark's.
  const serviceFlags = script === 'scripts/start.ts' ? SERVICE_NODE_FLAGS : [];
  const proc = spawn(process.execPath, [...serviceFlags, ...nodeArgs, '--import', 'tsx', script], { cwd: root, env, stdio: ['ignore', out, err] });
  closeSync(out);
  closeSync(err);
  if (proc.pid === undefined) throw new Error(`could not start ${name}`);
  const child: Child = {
    name,
    proc,
    pid: proc.pid,
    url: `http://127.0.0.1:${port}`,
    outLog,
    errLog,
    exited: new Promise((resolve) => proc.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null)))),
  };
  void child.exited.then((code) => (child.exitCode = code));
  return child;
}

/** Waits until `GET /v1/me` with `token` answers 200. */
async function waitReady(child: Child, token: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== undefined) {
      throw new Error(`${child.name} exited (code ${child.exitCode}) before it was ready:\n${tail(child.errLog)}\n${tail(child.outLog)}`);
    }
    try {
      const res = await fetch(`${child.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${child.name} was not ready within ${timeoutMs / 1000} s:\n${tail(child.errLog)}\n${tail(child.outLog)}`);
}

/** SIGTERM, then SIGKILL after 20 s. */
async function stopChild(child: Child): Promise<void> {
  if (child.exitCode !== undefined) return;
  child.proc.kill('SIGTERM');
  const killed = await Promise.race([child.exited.then(() => true), sleep(20_000).then(() => false)]);
  if (!killed) {
    log(`${child.name} did not stop within 20 s of SIGTERM; sending SIGKILL`);
    child.proc.kill('SIGKILL');
    await child.exited;
  }
}

/**
 * The processes one benchmark run starts, each on a free port (its `PORT`), remembered so that a
 * failure or Ctrl-C can stop them all.
 */
export class Processes {
  private readonly started: Child[] = [];

  constructor(private readonly logDir: string) {}

  /** Starts `script` with `env`, says so with `what` (and `note`), and waits until `GET /v1/me` with `readyToken` answers 200. */
  async start(
    name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    opts: { what: string; note?: string; readyToken: string; timeoutMs: number; nodeArgs?: string[] },
  ): Promise<Child> {
    const port = await freePort();
    const child = startChild(name, script, { ...env, PORT: String(port) }, port, this.logDir, opts.nodeArgs);
    this.started.push(child);
    log(`starting ${opts.what} (pid ${child.pid}, port ${port}${opts.note ? `; ${opts.note}` : ''})…`);
    await waitReady(child, opts.readyToken, opts.timeoutMs);
    log(`${name} ready`);
    return child;
  }

  /** Stops one process (SIGTERM, then SIGKILL after 20 s) and notes an unclean exit. */
  async stop(child: Child): Promise<void> {
    await stopChild(child);
    if (child.exitCode !== 0) log(`note: ${child.name} exited with code ${child.exitCode} on SIGTERM`);
  }

  /** Stops every process started so far, one after the other. */
  async stopEach(): Promise<void> {
    for (const child of this.started) await this.stop(child);
  }

  /** Stops every process started so far, ignoring failures (cleanup). */
  async stopAll(): Promise<void> {
    await Promise.all(this.started.map((c) => stopChild(c).catch(() => undefined)));
  }
}

/**
 * For a scenario run alone: a fresh database on the server of `pgUrl` and a `Processes` logging to
 * a temporary folder (`where` says which, for a start note). After `run`, or on Ctrl-C, every
 * process is stopped and the database dropped.
 */
export async function onFreshDatabase<T>(
  pgUrl: string,
  run: (fresh: { dbUrl: string; processes: Processes; where: string }) => Promise<T>,
): Promise<T> {
  const dbName = `bench_${randomBytes(6).toString('hex')}`;
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  const logDir = mkdtempSync(path.join(os.tmpdir(), `${dbName}-`));
  const processes = new Processes(logDir);
  let created = false;
  const cleanup = async () => {
    await processes.stopAll();
    if (created) await admin.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => undefined);
    await admin.end({ timeout: 5 });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    await admin.unsafe(`create database "${dbName}"`);
    created = true;
    return await run({ dbUrl: databaseUrl(pgUrl, dbName), processes, where: `database ${dbName}, logs in ${logDir}` });
  } finally {
    await cleanup();
  }
}
