/**
 * `npm run bench:cluster` (issue 19): what a request and a webhook delivery cost in CPU when the
 * service runs as `npm run cluster` — HAProxy, web processes, a worker, PgBouncer, Postgres — with
 * 1 and then 2 web processes, for each request scenario of `npm run bench`. An operator sizes cores
 * from it: N requests/s of a scenario need N × (its total µs) / 10⁶ cores, M deliveries/s likewise.
 *
 * 1. Starts its own embedded Postgres (db/embedded.ts, the code `npm start` uses) in a temporary
 *    folder: the machine's Postgres serves other work, so only a server of its own makes
 *    "Postgres CPU" the cluster's alone.
 * 2. For WEB in 1, 2: `npm run cluster` (WEB_PROCESSES=WEB, WORKER_PROCESSES=1) on that database;
 *    seeds once as `npm run bench` does (60 networks, a person's key scoped to each, an
 *    advertiser in each); per scenario a warm-up, then BENCH_RUNS runs of BENCH_DURATION s with
 *    BENCH_CONNECTIONS connections through HAProxy. CPU (user + system, from /proc) of each part
 *    over each run, divided by the 2xx answers; the median run per part.
 * 3. With 1 web process: webhook deliveries. 10 subscriptions to a signature-verifying receiver
 *    (webhook-fanout.ts), BENCH_CLUSTER_EVENTS events recorded by `recordEvent` from this process,
 *    as the fan-out benchmark does; CPU of each part until the last delivery arrived, per delivery.
 * 4. Writes the tables between the cluster-cost markers of docs/SCALING.md (BENCH_REPORT=- : none).
 *
 * Settings: BENCH_DURATION=10 BENCH_RUNS=3 BENCH_WARMUP=5 BENCH_CONNECTIONS=32 BENCH_NETWORKS=60
 * BENCH_CLUSTER_EVENTS=300; BENCH_QUICK=1 for a smoke run (writes nothing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@/db/client';
import { startEmbeddedPostgres } from '@/db/embedded';
import { freePort } from '@/scripts/free-port';
import { fmtInt, fmtMs, log } from '@/scripts/bench/format';
import { autocannonRun } from '@/scripts/bench/load';
import { loadAverage, procChildren, procCpuMs } from '@/scripts/bench/proc';
import { seed, type Seed } from '@/scripts/bench/seed';
import { ALL_TARGETS, loadSpecFor } from '@/scripts/bench/scenarios/throughput';
import { RATE_LIMIT, benchCommand, numberEnv, root, settings } from '@/scripts/bench/settings';
import { median } from '@/scripts/bench/stats';
import { record, startFanoutReceiver, subscribe, waitFor } from '@/scripts/bench/webhook-fanout';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { everyRequestBudget } from '@/tests/support/shared-limits';

const PARTS = ['web', 'haproxy', 'pgbouncer', 'postgres', 'worker'] as const;
type Part = (typeof PARTS)[number];
type Cpu = Record<Part, number>;

const EVENTS = Math.round(numberEnv('BENCH_CLUSTER_EVENTS', settings.quick ? 30 : 300));
const SUBSCRIPTIONS = 10;
const BEGIN = '<!-- cluster-cost: begin (written by `npm run bench:cluster`) -->';
const END = '<!-- cluster-cost: end -->';
const report = process.env.BENCH_REPORT === '-' || settings.quick ? undefined : path.join(root, 'docs', 'SCALING.md');

/**
 * CPU ms of a process and everything under it: live processes' own time, plus what the kernel
 * charged to each for its children that have exited and been waited for (a Postgres backend that
 * closed, for one), so a process that ends between two readings still counts.
 */
function treeCpuMs(pid: number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    const ms = procCpuMs(p, { exitedChildren: true });
    if (!Number.isFinite(ms)) continue; // gone
    total += ms;
    stack.push(...procChildren(p));
  }
  return total;
}

interface Running {
  url: string;
  pids: Record<Part, number[]>;
  stop(): Promise<void>;
}

function cpuOf(running: Running): Cpu {
  const out = {} as Cpu;
  for (const part of PARTS) out[part] = running.pids[part].reduce((sum, pid) => sum + treeCpuMs(pid), 0);
  return out;
}

const perUnit = (a: Cpu, b: Cpu, units: number): Cpu => {
  const out = {} as Cpu;
  for (const part of PARTS) out[part] = units > 0 ? ((b[part] - a[part]) * 1000) / units : Number.NaN;
  return out;
};
const total = (c: Cpu) => PARTS.reduce((sum, p) => sum + c[p], 0);

async function startCluster(databaseUrl: string, postgresPid: number, webs: number, token: string): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      WEB_PROCESSES: String(webs),
      WORKER_PROCESSES: '1',
      BOOTSTRAP_SUPERUSER_TOKEN: token,
      ...everyRequestBudget(RATE_LIMIT),
      WEBHOOK_ALLOW_PRIVATE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`cluster not ready in ${settings.startTimeoutMs / 1000} s:\n${output.slice(-3000)}`)),
      settings.startTimeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Cluster ready on http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run cluster exited (${code}):\n${output.slice(-3000)}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    // Everything every part printed, for a reader of the numbers (or of a failure).
    const logFile = path.join(os.tmpdir(), `bench-cluster-${webs}-web.log`);
    writeFileSync(logFile, output);
    log(`the cluster's output: ${logFile}`);
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  const pidsOf = (re: RegExp) => [...output.matchAll(re)].map((m) => Number(m[1]));
  return {
    url: `http://127.0.0.1:${port}`,
    pids: {
      web: pidsOf(/\[cluster\] web\d+ pid (\d+)/g),
      worker: pidsOf(/\[cluster\] worker\d+ pid (\d+)/g),
      haproxy: pidsOf(/\[cluster\] haproxy pid (\d+)/g),
      pgbouncer: pidsOf(/\[cluster\] pgbouncer pid (\d+)/g),
      postgres: [postgresPid],
    },
    stop,
  };
}

interface Row {
  scenario: string;
  webs: number;
  rps: number;
  p99: number;
  us: Cpu;
}

async function measureRequests(running: Running, data: Seed, webs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of ALL_TARGETS) {
    const { path, token, requests } = loadSpecFor(target, data);
    const run = (seconds: number) =>
      autocannonRun({
        url: `${running.url}${requests ? '/v1/networks' : path}`,
        connections: settings.connections,
        duration: seconds,
        pipelining: 1,
        headers: { authorization: `Bearer ${token}` },
        ...(requests ? { requests, idReplacement: true } : {}),
      });
    await run(settings.warmup);
    const runs: Row[] = [];
    for (let i = 0; i < settings.runs; i++) {
      const before = cpuOf(running);
      const { result, sorted } = await run(settings.duration);
      const after = cpuOf(running);
      const ok = result['2xx'];
      if (result.non2xx > 0 || result.errors > 0) log(`${target.title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      runs.push({
        scenario: target.title,
        webs,
        rps: ok / result.duration,
        p99: sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN,
        us: perUnit(before, after, ok),
      });
    }
    const us = {} as Cpu;
    for (const part of PARTS) us[part] = median(runs.map((r) => r.us[part]));
    const row = { scenario: target.title, webs, rps: median(runs.map((r) => r.rps)), p99: median(runs.map((r) => r.p99)), us };
    log(`${webs} web: ${row.scenario}: ${fmtInt(row.rps)} req/s, p99 ${fmtMs(row.p99)} ms, ${fmtInt(total(us))} µs CPU per request`);
    rows.push(row);
  }
  return rows;
}

async function measureDeliveries(
  running: Running,
  databaseUrl: string,
  superUser: string,
): Promise<{ deliveries: number; seconds: number; us: Cpu }> {
  const receiver = await startFanoutReceiver();
  const db = connect(databaseUrl, { max: 8 });
  try {
    const networkId = await subscribe({ baseUrl: running.url, token: superUser }, receiver, 'cost', SUBSCRIPTIONS);
    const before = cpuOf(running);
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < EVENTS) await record(db, networkId, 'cost', next++);
      }),
    );
    const got = await waitFor(receiver, 'cost', EVENTS * SUBSCRIPTIONS, 300_000);
    const after = cpuOf(running);
    if (got.length < EVENTS * SUBSCRIPTIONS) throw new Error(`only ${got.length} of ${EVENTS * SUBSCRIPTIONS} deliveries arrived`);
    const result = { deliveries: got.length, seconds: (Date.now() - t0) / 1000, us: perUnit(before, after, got.length) };
    log(`deliveries: ${result.deliveries} in ${result.seconds.toFixed(1)} s, ${fmtInt(total(result.us))} µs CPU per delivery`);
    return result;
  } finally {
    await db.close();
    await receiver.close();
  }
}

function render(rows: Row[], delivery: { deliveries: number; seconds: number; us: Cpu }, started: Date): string[] {
  const us = (n: number) => fmtInt(n);
  const out = [
    BEGIN,
    '',
    `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${benchCommand('npm run bench:cluster')}\` on ${os.cpus().length} cores ` +
      `(load average ${loadAverage()} at the end; others may have been working on the machine). ` +
      `${settings.runs} run(s) of ${settings.duration} s per row, ${settings.connections} connections through HAProxy, the median run; ` +
      `the person's key with ${settings.networks} scopes and the super_user key, as \`npm run bench\`. CPU is user + system time from /proc of each part ` +
      `(its processes and their exited children), divided by the 2xx answers.`,
    '',
    '| scenario | web processes | req/s | p99 ms | web µs | HAProxy µs | PgBouncer µs | Postgres µs | worker µs | **total µs** |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.webs} | ${fmtInt(r.rps)} | ${fmtMs(r.p99)} | ${us(r.us.web)} | ${us(r.us.haproxy)} | ${us(r.us.pgbouncer)} | ${us(r.us.postgres)} | ${us(r.us.worker)} | **${us(total(r.us))}** |`,
    ),
    '',
    `Webhook deliveries (1 web process): ${EVENTS} events × ${SUBSCRIPTIONS} subscriptions recorded by \`recordEvent\` from the ` +
      `benchmark (its inserts are in the Postgres column), ${fmtInt(delivery.deliveries)} signed deliveries to a verifying receiver in ` +
      `${delivery.seconds.toFixed(1)} s:`,
    '',
    '| per delivery | worker µs | PgBouncer µs | Postgres µs | web µs | HAProxy µs | **total µs** |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| one signed delivery | ${us(delivery.us.worker)} | ${us(delivery.us.pgbouncer)} | ${us(delivery.us.postgres)} | ${us(delivery.us.web)} | ${us(delivery.us.haproxy)} | **${us(total(delivery.us))}** |`,
    '',
  ];
  const one = rows.filter((r) => r.webs === 1);
  const sizing = one.map((r) => `${r.scenario}: ${fmtInt(1e6 / total(r.us))}/s per core`).join('; ');
  out.push(
    `Sizing, from the 1-web-process rows: one core serves about ${sizing}; and about ${fmtInt(1e6 / total(delivery.us))} deliveries/s. ` +
      'For N requests/s and M deliveries/s, cores ≈ (N × request µs + M × delivery µs) / 10⁶, plus headroom ' +
      '(a machine past ~70 % busy queues, and p99 grows first).',
    '',
    END,
  );
  return out;
}

function writeReport(lines: string[]): void {
  if (!report) return;
  const text = readFileSync(report, 'utf8');
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${report} has no cluster-cost markers`);
  writeFileSync(report, text.slice(0, begin) + lines.join('\n') + text.slice(end + END.length));
  log(`Wrote ${path.relative(root, report)}`);
}

async function main(): Promise<void> {
  const started = new Date();
  const pgDir = mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir: pgDir, port: await freePort(), database: 'bench_cluster' });
  const superUser = generateApiKeyToken('test');
  const rows: Row[] = [];
  let delivery: Awaited<ReturnType<typeof measureDeliveries>> | undefined;
  let data: Seed | undefined;
  try {
    for (const webs of [1, 2]) {
      log(`npm run cluster with ${webs} web process(es) and 1 worker`);
      const running = await startCluster(pg.url, pg.pid, webs, superUser);
      try {
        data ??= await seed({ baseUrl: running.url, token: superUser }, pg.url, settings.networks);
        rows.push(...(await measureRequests(running, data, webs)));
        if (webs === 1) delivery = await measureDeliveries(running, pg.url, superUser);
      } finally {
        await running.stop();
      }
    }
    const lines = render(rows, delivery!, started);
    process.stdout.write(`${lines.join('\n')}\n`);
    writeReport(lines);
  } finally {
    await pg.stop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
