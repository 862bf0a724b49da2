/**
 * `npm run cluster`: the service as it runs on more than one process, on this machine.
 *
 *   clients ──▶ HAProxy :PORT ──▶ web 1..WEB_PROCESSES (WORKER=off, GET /healthz checked every second)
 *                                    │ transaction pooling, no named prepared statements
 *                                    ▼
 *               PgBouncer ──────▶ Postgres (DATABASE_URL, else the embedded one under DATA_DIR)
 *                                    ▲ session pooling (LISTEN for new jobs, migrations' lock)
 *               worker 1..WORKER_PROCESSES (npm run worker)
 *
 * It installs nothing: without `haproxy` or `pgbouncer` it names the package to install and
 * exits 1. It prints `Cluster ready on http://127.0.0.1:PORT` once every part answers, and
 * stops every part on SIGINT or SIGTERM: HAProxy first (no new requests), then the web
 * processes (they drain) and the workers (they finish their jobs), then PgBouncer, then the
 * embedded Postgres. A web process or worker that dies is started again. docs/SCALING.md says
 * why it is built this way and what it costs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { z } from 'zod';
import { loadConfig } from '@/server/config';
import { resolveDatabase } from './runtime';
import { freePort } from '@/scripts/free-port';
import { clusterBinaries } from './cluster/binaries';
import { runningChildren, startChild, type Child } from './cluster/child';
import { startHaproxy } from './cluster/haproxy';
import { startPgBouncer, type PgBouncer } from './cluster/pgbouncer';
import { ensureNextBuild } from './next-build';
import { SERVICE_NODE_FLAGS } from './node-flags';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const clusterSettings = z.object({
  WEB_PROCESSES: z.coerce.number().int().min(1).max(16).default(2),
  WORKER_PROCESSES: z.coerce.number().int().min(0).max(16).default(2),
});

/** A web process or worker: started again (on the same port) when it dies. */
interface Member {
  name: string;
  start(): Child;
  current?: Child;
  url?: string;
}

const log = (line: string) => process.stdout.write(`[cluster] ${line}\n`);

async function main(): Promise<void> {
  const config = loadConfig();
  const parsed = clusterSettings.safeParse(process.env);
  if (!parsed.success) throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { WEB_PROCESSES, WORKER_PROCESSES } = parsed.data;
  const binaries = clusterBinaries();
  if ('missing' in binaries) {
    process.stderr.write(`${binaries.missing}\n`);
    process.exit(1);
  }
  log(`starting on Node ${process.version}: HAProxy, ${WEB_PROCESSES} web, ${WORKER_PROCESSES} worker process(es), PgBouncer`);

  const dir = path.resolve(config.DATA_DIR, 'cluster');
  mkdirSync(dir, { recursive: true });
  stopLeftoverPgBouncer(dir);
  ensureNextBuild(root, log); // once, before the web processes start
  const { url: databaseUrl, embedded } = await resolveDatabase(config);
  stopEmbedded = embedded && (() => embedded.stop());

  const workerPoolMax = 5;
  // A worker's two graphile-worker pools (jobs/worker.ts), its own pool, and two more (the stale-job sweeper, unlocking a stopped runner's jobs).
  const perWorker = Math.max(config.WORKER_CONCURRENCY, 10) + Math.min(config.WORKER_SYNTHESIS_CONCURRENCY, 4) + 1 + workerPoolMax + 2;
  const pools = { transaction: 20, session: WORKER_PROCESSES * perWorker + WEB_PROCESSES + 5 };
  await warnIfPostgresTooSmall(databaseUrl, pools.transaction + pools.session);
  const pgbouncer: PgBouncer = await startPgBouncer({
    binary: binaries.pgbouncer,
    dir,
    databaseUrl,
    transactionPoolSize: pools.transaction,
    sessionPoolSize: pools.session,
  });
  writeFileSync(path.join(dir, 'pgbouncer.pid'), String(pgbouncer.child.pid));
  log(`pgbouncer pid ${pgbouncer.child.pid}`);

  const shared = {
    ...process.env,
    PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    NODE_ENV: process.env.NODE_ENV ?? 'production',
  };
  const script = (name: string, nodeFlags: readonly string[] = []) =>
    [process.execPath, [...nodeFlags, '--import', 'tsx', path.join(root, 'scripts', name)]] as const;

  const webs: Member[] = [];
  for (let i = 1; i <= WEB_PROCESSES; i++) {
    const port = await freePort();
    const [node, args] = script('start.ts', SERVICE_NODE_FLAGS);
    webs.push({
      name: `web${i}`,
      url: `http://127.0.0.1:${port}`,
      start: () =>
        startChild(`web${i}`, node, [...args], {
          env: {
            ...shared,
            PORT: String(port),
            HOST: '127.0.0.1',
            WORKER: 'off',
            DATABASE_URL: pgbouncer.transactionUrl,
            DATABASE_DIRECT_URL: pgbouncer.sessionUrl,
            DATABASE_PREPARED_STATEMENTS: 'off',
            TRUSTED_PROXIES: '127.0.0.1,::1',
          },
        }),
    });
  }
  const workers: Member[] = [];
  for (let i = 1; i <= WORKER_PROCESSES; i++) {
    const [node, args] = script('worker.ts');
    workers.push({
      name: `worker${i}`,
      start: () =>
        startChild(`worker${i}`, node, [...args], {
          env: { ...shared, DATABASE_URL: pgbouncer.sessionUrl, DATABASE_POOL_MAX: String(workerPoolMax) },
        }),
    });
  }

  let stopping = false;
  const front: { haproxy?: Child } = {}; // started last, stopped first
  const ready = (m: Member) => m.current!.waitFor(m.url ? 'Ad network service ready on' : 'worker running', 180_000);
  const launch = async (m: Member) => {
    m.current = m.start();
    const child = m.current;
    void child.exit.then((code) => {
      if (stopping || child !== m.current) return;
      log(`${m.name} (pid ${child.pid}) exited (${code}); starting it again in 1 s`);
      setTimeout(() => {
        if (stopping) return;
        void launch(m)
          .then(() => log(`${m.name} runs again (pid ${m.current!.pid})`))
          .catch((error: unknown) => log(`${m.name} did not start again: ${String(error)}`));
      }, 1_000);
    });
    await ready(m);
  };

  const stop = async (signal: string, code: number) => {
    if (stopping) return;
    stopping = true;
    log(`stopping (${signal})`);
    // No new requests; HAProxy finishes the ones in flight (soft stop), then the web processes drain.
    await front.haproxy?.stop('SIGUSR1', 10_000);
    await Promise.all([...webs, ...workers].map((m) => m.current?.stop('SIGTERM', 20_000)));
    await pgbouncer.child.stop('SIGTERM', 5_000);
    await embedded?.stop();
    log('Cluster stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal, 0));
  void pgbouncer.child.exit.then((code) => !stopping && (log(`PgBouncer exited (${code}): stopping the cluster`), void stop('PgBouncer exited', 1)));

  // The first web process migrates and makes the first key (and prints it, once); the rest start together.
  await launch(webs[0]!);
  await Promise.all([...webs.slice(1), ...workers].map(launch));
  for (const m of [...webs, ...workers]) log(`${m.name} pid ${m.current!.pid}${m.url ? ` on ${m.url}` : ''}`);

  const statsPort = await freePort();
  const haproxy = (front.haproxy = startHaproxy({
    binary: binaries.haproxy,
    dir,
    host: config.HOST,
    port: config.PORT,
    webPorts: webs.map((w) => Number(new URL(w.url!).port)),
    statsPort,
  }));
  log(`haproxy pid ${haproxy.pid}`);
  void haproxy.exit.then((code) => !stopping && (log(`HAProxy exited (${code}): stopping the cluster`), void stop('HAProxy exited', 1)));
  await untilHealthyThrough(`http://127.0.0.1:${config.PORT}`, haproxy);
  log(`HAProxy's status page: http://127.0.0.1:${statsPort}/ (;csv for machines); PgBouncer on 127.0.0.1:${new URL(pgbouncer.sessionUrl).port}`);
  process.stdout.write(`Cluster ready on http://127.0.0.1:${config.PORT} (API: /v1, console: /console)\n`);
}

/** HAProxy answers /healthz once it has found a web process up. */
async function untilHealthyThrough(url: string, haproxy: Child): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (haproxy.exited()) throw new Error(`HAProxy exited at start:\n${haproxy.recentOutput()}`);
    const status = await fetch(`${url}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`HAProxy did not answer /healthz with 200 within 30 s (last: ${status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A PgBouncer left by a cluster that was killed (it runs in its own process group): stop it. */
function stopLeftoverPgBouncer(dir: string): void {
  const pidFile = path.join(dir, 'pgbouncer.pid');
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pgbouncer')) return;
  } catch {
    return; // no file, or no such process
  }
  log(`stopping a PgBouncer left by an earlier run (pid ${pid})`);
  process.kill(pid, 'SIGTERM');
}

/** The pools need that many server connections at most; say so if Postgres allows fewer. */
async function warnIfPostgresTooSmall(databaseUrl: string, needed: number): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ max_connections: string }[]>`show max_connections`;
    const max = Number(row!.max_connections);
    if (needed > max - 3)
      log(`warning: the pools may open ${needed} connections and Postgres allows ${max}; lower WORKER_PROCESSES or WORKER_CONCURRENCY`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Set once an embedded Postgres runs, so that a failed start stops it too. */
let stopEmbedded: (() => Promise<void>) | undefined;

main().catch(async (error: unknown) => {
  process.stderr.write(`Cluster failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  await Promise.all([...runningChildren].map((child) => child.stop('SIGTERM', 10_000)));
  await stopEmbedded?.();
  process.exit(1);
});
