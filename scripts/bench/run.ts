/**
 * `npm run bench`: the service against a bare node:http + postgres.js baseline
 * doing the same queries (scripts/bench/baseline.ts), side by side in one run,
 * plus memory and the postgres.js pool regression benchmark (pg-pool.ts).
 * Writes docs/PERFORMANCE.md. Not part of `npm test`.
 *
 * What it does:
 *  1. creates a fresh database `bench_<random>` on BENCH_PG_URL's server;
 *  2. starts the service as a user does (`node --import tsx scripts/start.ts`, which is what
 *     `npx tsx scripts/start.ts` runs, minus the tsx CLI wrapper process, so the child's pid IS
 *     the server and its /proc/<pid>/status is the server's memory), with default logging
 *     sent to a temporary file, and the baseline next to it;
 *  3. seeds over the API: BENCH_NETWORKS networks via POST /v1/networks (super_user), then a
 *     person's key (administrator member of every network, a scope on each) with the project's
 *     own `mintApiKey`; checks that service and baseline answer identically;
 *  4. autocannon (programmatic) with that normal key: GET /v1/me and GET /v1/networks?limit=50,
 *     a warm-up per server, then BENCH_RUNS measured runs per server, alternating which goes first;
 *  5. RSS (VmRSS / VmHWM) idle and after load; server CPU time per request;
 *  6. stops both servers; starts the service again (same database) with SYNTH_PROVIDER=http against
 *     a fake voice vendor and measures accept → creative ready minus the vendor's time
 *     (creative-overhead.ts), sequentially and at BENCH_CREATIVE_CONCURRENCY; stops it;
 *  7. starts the service again (same database) with WEBHOOK_ALLOW_PRIVATE=1 and runs the webhook
 *     fan-out benchmark (webhook-fanout.ts: signed deliveries/s in a burst, event → receipt latency
 *     at a steady event rate, to a signature-verifying node:http receiver); stops it;
 *  8. runs the pg-pool benchmark, writes the report;
 *  9. always (finally, and on Ctrl-C): stops the servers and drops the database.
 *
 * Environment (all optional):
 *   BENCH_QUICK=1         smoke mode: 3 s runs, 1 run, 1 s warm-up, 5 s pool benchmark, 10 creatives
 *                         per creative run, and the
 *                         report is NOT written unless BENCH_REPORT names a file
 *   BENCH_DURATION=10     seconds per measured run          BENCH_RUNS=3       runs per server and target
 *   BENCH_WARMUP=5        warm-up seconds per server/target BENCH_CONNECTIONS=32
 *   BENCH_POOL_SECONDS=20 pg-pool benchmark length          BENCH_NETWORKS=60
 *   BENCH_CREATIVES=40    offers accepted per creative run  BENCH_CREATIVE_CONCURRENCY=5
 *   BENCH_VENDOR_DELAY_MS=200  the fake voice vendor's fixed synthesis time (0 is allowed)
 *   BENCH_FANOUT_EVENTS=500 BENCH_FANOUT_SUBSCRIPTIONS=10 BENCH_FANOUT_RUNS=3   webhook burst: events × subscriptions, runs
 *   BENCH_FANOUT_RATE=100 BENCH_FANOUT_SECONDS=20 BENCH_FANOUT_STEADY_RUNS=3     webhook steady-rate latency runs
 *   BENCH_FANOUT=0        skip the webhook fan-out benchmark
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres  server + admin database
 *   BENCH_REPORT=docs/PERFORMANCE.md   where to write the report ("-" = nowhere)
 *   BENCH_KEEP_LOGS=1     keep the servers' log files (always kept when the run fails)
 *   BENCH_START_TIMEOUT=900  seconds to wait for the service (a first start may run `next build`)
 *
 * For investigations (any of these set → no report is written unless BENCH_REPORT names a file):
 *   BENCH_TARGETS=me,networks           which targets to run
 *   BENCH_SERVICE_ENV="LOG_LEVEL=silent"  extra environment for the service (space-separated K=V)
 *   BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"  extra node flags for the service
 *   BENCH_BASELINE_PREPARE=0            baseline without prepared statements (as Drizzle queries run)
 *   BENCH_POOL_MAX=10                   database pool size of both servers
 *
 * The report: everything above REPORT_MARKER is regenerated on each run; anything below it
 * (hand-written analysis) is carried over unchanged.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { connect } from '../../db/client';
import { newId } from '../../db/ids';
import { memberships, users } from '../../db/schema';
import { mintApiKey } from '../../server/services/keys/mint-api-key';
import {
  creativeLogLine,
  prepareOffers,
  renderCreativeSection,
  runCreatives,
  startFakeVendor,
  summarizeCreatives,
  type CreativeSummary,
  type FakeVendor,
} from './creative-overhead';
import { runPoolBenchmark, type PoolBenchmarkResult } from './pg-pool';
import { burstLogLine, fanoutSettings, fanoutVerdict, renderWebhookSection, runWebhookFanout, steadyLogLine, type FanoutResult } from './webhook-fanout';
import { machineBusyMs, postgresCpuMs, procCpuMs, procMemory, softirqThreadsCpuMs, type ProcMemory } from './proc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

export const REPORT_MARKER =
  '<!-- END OF GENERATED REPORT. Everything below this line is hand-written and kept as is by `npm run bench`. -->';

// ---------------------------------------------------------------- settings

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

const quick = process.env.BENCH_QUICK === '1';

function parseEnvList(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`BENCH_SERVICE_ENV: expected K=V, got ${JSON.stringify(pair)}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

const investigation = {
  targets: (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean),
  serviceEnv: parseEnvList(process.env.BENCH_SERVICE_ENV),
  serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  baselinePrepare: process.env.BENCH_BASELINE_PREPARE !== '0',
};
const investigating =
  investigation.targets.length > 0 ||
  Object.keys(investigation.serviceEnv).length > 0 ||
  investigation.serviceNodeArgs.length > 0 ||
  !investigation.baselinePrepare ||
  process.env.BENCH_POOL_MAX !== undefined;

const settings = {
  quick,
  duration: numberEnv('BENCH_DURATION', quick ? 3 : 10),
  runs: Math.round(numberEnv('BENCH_RUNS', quick ? 1 : 3)),
  warmup: numberEnv('BENCH_WARMUP', quick ? 1 : 5),
  connections: Math.round(numberEnv('BENCH_CONNECTIONS', 32)),
  poolSeconds: numberEnv('BENCH_POOL_SECONDS', quick ? 5 : 20),
  networks: Math.round(numberEnv('BENCH_NETWORKS', 60)),
  creatives: Math.round(numberEnv('BENCH_CREATIVES', quick ? 10 : 40)),
  creativeConcurrency: Math.round(numberEnv('BENCH_CREATIVE_CONCURRENCY', 5)),
  vendorDelayMs: process.env.BENCH_VENDOR_DELAY_MS === '0' ? 0 : numberEnv('BENCH_VENDOR_DELAY_MS', 200),
  startTimeoutMs: numberEnv('BENCH_START_TIMEOUT', 900) * 1000,
  pgUrl: process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  report:
    process.env.BENCH_REPORT === '-'
      ? undefined
      : process.env.BENCH_REPORT
        ? path.resolve(process.env.BENCH_REPORT)
        : quick || investigating
          ? undefined
          : path.join(root, 'docs', 'PERFORMANCE.md'),
  keepLogs: process.env.BENCH_KEEP_LOGS === '1',
};

/** The service and the baseline run with the same pool size (the service's default, 10). */
const POOL_MAX = Math.round(numberEnv('BENCH_POOL_MAX', 10));
/** Generous per-key limits: the limiter still runs on every request but never refuses one. */
const RATE_LIMIT = '1000000';
const ALL_TARGETS = [
  { id: 'me', path: '/v1/me', title: 'GET /v1/me' },
  { id: 'networks', path: '/v1/networks?limit=50', title: 'GET /v1/networks?limit=50' },
] as const;
type TargetId = (typeof ALL_TARGETS)[number]['id'];
const TARGETS = ALL_TARGETS.filter((t) => investigation.targets.length === 0 || investigation.targets.includes(t.id));
type ServerName = 'service' | 'baseline';
const THROUGHPUT_TARGET = 0.5;
const P99_TARGET = 2;

const log = (msg: string) => process.stdout.write(`[bench] ${msg}\n`);

// ---------------------------------------------------------------- small helpers

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function testToken(): string {
  let out = 'sk_test_';
  for (let i = 0; i < 40; i++) out += BASE62[randomInt(62)];
  return out;
}

function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// ---------------------------------------------------------------- /proc

function procCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '?';
  }
}

/** Direct children of a process (all its threads). */
function procChildren(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of execFileSync('ls', [`/proc/${pid}/task`], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) out.push(...list.split(' ').map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

// ---------------------------------------------------------------- child processes

interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  url: string;
  outLog: string;
  errLog: string;
  exited: Promise<number | null>;
  exitCode?: number | null;
}

function startChild(name: string, script: string, env: NodeJS.ProcessEnv, port: number, logDir: string, nodeArgs: string[] = []): Child {
  const outLog = path.join(logDir, `${name}.stdout.log`);
  const errLog = path.join(logDir, `${name}.stderr.log`);
  const out = openSync(outLog, 'a');
  const err = openSync(errLog, 'a');
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd: root, env, stdio: ['ignore', out, err] });
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

// ---------------------------------------------------------------- HTTP helpers

async function call(url: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, body };
}

async function seedNetworks(service: Child, superToken: string, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { status, body } = await call(`${service.url}/v1/networks`, superToken, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench network ${String(i + 1).padStart(3, '0')}` }),
      });
      if (status !== 201) throw new Error(`POST /v1/networks answered ${status}: ${JSON.stringify(body)}`);
      ids[i] = (body as { id: string }).id;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ids;
}

/** A person (administrator member of every network) and their key scoped to all of them, as the service makes them. */
async function createPersonKey(url: string, networkIds: string[]): Promise<string> {
  const handle = connect(url, { max: 1 });
  try {
    return await handle.db.transaction(async (tx) => {
      const userId = newId('user');
      await tx.insert(users).values({ id: userId, email: `bench-${userId}@example.test`, name: 'Bench reader' });
      await tx
        .insert(memberships)
        .values(networkIds.map((networkId) => ({ id: newId('membership'), networkId, userId, role: 'administrator' as const })));
      const { token } = await mintApiKey(tx, {
        name: 'bench reader',
        environment: 'test',
        owner: { userId },
        scopes: networkIds.map((networkId) => ({ networkId, role: 'administrator' as const })),
      });
      return token;
    });
  } finally {
    await handle.close();
  }
}

/** Both servers must do the same work: same /v1/me body, same page of networks. */
async function checkSameAnswers(service: Child, baseline: Child, token: string, networkCount: number): Promise<void> {
  const [sMe, bMe] = await Promise.all([call(`${service.url}/v1/me`, token), call(`${baseline.url}/v1/me`, token)]);
  if (sMe.status !== 200 || bMe.status !== 200) throw new Error(`/v1/me: service ${sMe.status}, baseline ${bMe.status}`);
  const scopes = (sMe.body as { scopes?: unknown[] }).scopes ?? [];
  if (scopes.length !== networkCount) throw new Error(`/v1/me shows ${scopes.length} scopes, expected ${networkCount}`);
  if (!isDeepStrictEqual(sMe.body, bMe.body)) {
    throw new Error(`/v1/me differs:\nservice  ${JSON.stringify(sMe.body)}\nbaseline ${JSON.stringify(bMe.body)}`);
  }
  const path = ALL_TARGETS[1].path;
  const [sNet, bNet] = await Promise.all([call(`${service.url}${path}`, token), call(`${baseline.url}${path}`, token)]);
  if (sNet.status !== 200 || bNet.status !== 200) throw new Error(`${path}: service ${sNet.status}, baseline ${bNet.status}`);
  type Page = { items: unknown[]; next_cursor: string | null };
  const s = sNet.body as Page;
  const b = bNet.body as Page;
  const expected = Math.min(50, networkCount);
  if (s.items.length !== expected) throw new Error(`${path} returned ${s.items.length} items, expected ${expected}`);
  // Cursors are MACed with different keys; both must be present (or absent) together.
  if (!isDeepStrictEqual(s.items, b.items) || (s.next_cursor === null) !== (b.next_cursor === null)) {
    throw new Error(`${path} differs between service and baseline`);
  }
}

// ---------------------------------------------------------------- load

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
type Autocannon = (
  opts: { url: string; connections: number; duration: number; pipelining: number; headers: Record<string, string> },
  cb: (err: Error | null, result: AutocannonResult) => void,
) => EventEmitter;
const autocannon = require('autocannon') as Autocannon;
const autocannonVersion = (require('autocannon/package.json') as { version: string }).version;

interface RunResult {
  server: ServerName;
  target: TargetId;
  round: number;
  rps: number;
  ok: number;
  errors: number;
  non2xx: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** server process CPU (user+sys) per request, µs */
  serverCpuUsPerReq: number;
  /** all `postgres` processes' CPU per request, µs */
  pgCpuUsPerReq: number;
  /** benchmark client (this process) CPU, % of one core */
  clientCpuPct: number;
  /** CPU used by everything else on the machine during the run, % of one core (noise) */
  otherCpuPct: number;
  rssAfterKiB: number;
}

async function load(child: Child, path: string, token: string, seconds: number): Promise<Omit<RunResult, 'server' | 'target' | 'round'>> {
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const cpu0 = procCpuMs(child.pid);
  const pg0 = postgresCpuMs();
  const busy0 = machineBusyMs();
  const irq0 = softirqThreadsCpuMs();
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const tracker = autocannon(
      {
        url: `${child.url}${path}`,
        connections: settings.connections,
        duration: seconds,
        pipelining: 1,
        headers: { authorization: `Bearer ${token}` },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    // autocannon's own histogram keeps whole milliseconds; record every response time (fractional ms) instead.
    tracker.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode < 200 || statusCode >= 300) return;
      if (n === latencies.length) {
        const bigger = new Float64Array(latencies.length * 2);
        bigger.set(latencies);
        latencies = bigger;
      }
      latencies[n++] = responseTime;
    });
  });
  const elapsedS = (performance.now() - t0) / 1000;
  const serverCpuMs = procCpuMs(child.pid) - cpu0;
  const pgCpuMs = postgresCpuMs() - pg0;
  const busyMs = machineBusyMs() - busy0 - (softirqThreadsCpuMs() - irq0);
  const client = process.cpuUsage(client0);
  const rssAfterKiB = procMemory(child.pid)?.rssKiB ?? Number.NaN;
  const sorted = latencies.subarray(0, n).sort();
  const duration = result.duration > 0 ? result.duration : elapsedS;
  const ok = result['2xx'];
  const clientMs = (client.user + client.system) / 1000;
  return {
    rps: ok / duration,
    ok,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
    serverCpuUsPerReq: ok > 0 ? (serverCpuMs * 1000) / ok : Number.NaN,
    pgCpuUsPerReq: ok > 0 ? (pgCpuMs * 1000) / ok : Number.NaN,
    clientCpuPct: (clientMs / (elapsedS * 1000)) * 100,
    otherCpuPct: Math.max(0, ((busyMs - serverCpuMs - pgCpuMs - clientMs) / (elapsedS * 1000)) * 100),
    rssAfterKiB,
  };
}

// ---------------------------------------------------------------- report

interface Summary {
  target: (typeof ALL_TARGETS)[number];
  per: Record<
    ServerName,
    { rpsMedian: number; rpsMin: number; rpsMax: number; p50: number; p99: number; cpuUs: number; pgCpuUs: number; failures: number }
  >;
  throughputRatio: number;
  p99Ratio: number;
  throughputMet: boolean;
  p99Met: boolean;
  valid: boolean;
}

function summarize(runs: RunResult[]): Summary[] {
  return TARGETS.map((target) => {
    const pick = (server: ServerName) => {
      const rs = runs.filter((r) => r.target === target.id && r.server === server);
      const rps = rs.map((r) => r.rps);
      return {
        rpsMedian: median(rps),
        rpsMin: Math.min(...rps),
        rpsMax: Math.max(...rps),
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        cpuUs: median(rs.map((r) => r.serverCpuUsPerReq)),
        pgCpuUs: median(rs.map((r) => r.pgCpuUsPerReq)),
        failures: rs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      };
    };
    const per = { service: pick('service'), baseline: pick('baseline') };
    const throughputRatio = per.service.rpsMedian / per.baseline.rpsMedian;
    const p99Ratio = per.service.p99 / per.baseline.p99;
    return {
      target,
      per,
      throughputRatio,
      p99Ratio,
      throughputMet: throughputRatio >= THROUGHPUT_TARGET,
      p99Met: p99Ratio <= P99_TARGET,
      valid: per.service.failures === 0 && per.baseline.failures === 0,
    };
  });
}

const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a');
const fmtMiB = (kib: number) => (Number.isFinite(kib) ? (kib / 1024).toFixed(0) : 'n/a');
const verdict = (met: boolean) => (met ? '**met**' : '**MISSED**');

interface Environment {
  cpu: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  postgres: string;
  postgresJs: string;
  commit: string;
  command: string;
  date: string;
  loadBefore: string;
}

interface MemoryReport {
  idle: Record<ServerName, ProcMemory | undefined>;
  after: Record<ServerName, ProcMemory | undefined>;
  maxDuringKiB: Record<ServerName, number>;
  serviceProcess: string;
  serviceChildren: string[];
}

const NOISE_LIMIT_PCT = 15;
/** The unpatched Queue loses ~60 % within 15 s; noise on this machine moves single windows by ~20 %. */
const POOL_TREND_LIMIT = 0.75;

/** Median of the second half of the windows ÷ median of the first half (a middle window counts in neither). */
function poolTrend(pool: PoolBenchmarkResult): number {
  const w = pool.windows;
  const half = Math.floor(w.length / 2);
  if (half === 0) return 1;
  return median(w.slice(w.length - half)) / median(w.slice(0, half));
}

function noiseNote(runs: RunResult[], env: Environment): string[] {
  const other = runs.map((r) => r.otherCpuPct);
  const med = median(other);
  const max = Math.max(...other);
  const line = `Unrelated CPU use on the machine during the measured runs: median ${Math.round(med)} %, max ${Math.round(max)} % of one core (load average before the run: ${env.loadBefore}).`;
  return med > NOISE_LIMIT_PCT
    ? [`> **Warning:** the machine was busy with other work during this run. ${line} Rerun on a quiet machine for reliable numbers.`, '']
    : [line, ''];
}

function renderReport(
  env: Environment,
  runs: RunResult[],
  summaries: Summary[],
  memory: MemoryReport,
  pool: PoolBenchmarkResult | undefined,
  poolError: string | undefined,
  poolOtherPct: number,
  creativeLines: string[],
): string {
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  const allMet = summaries.every((s) => s.valid && s.throughputMet && s.p99Met);

  push(
    '# Performance',
    '',
    '<!-- Generated by `npm run bench` (scripts/bench/run.ts). Do not edit above the END OF GENERATED REPORT marker: a rerun rewrites it. -->',
    '',
    `Measured ${env.date} with \`${env.command}\` at commit ${env.commit}.`,
    '',
    `**Verdict: ${allMet ? 'all targets met' : 'some targets MISSED'}** (targets: service throughput ≥ ${THROUGHPUT_TARGET}× the baseline's, service p99 latency ≤ ${P99_TARGET}× the baseline's).`,
    '',
    '| target | throughput service/baseline | p99 service/baseline |',
    '|---|---|---|',
    ...summaries.map(
      (s) =>
        `| ${s.target.title} | ${s.throughputRatio.toFixed(2)}× — ${verdict(s.throughputMet)} | ${s.p99Ratio.toFixed(2)}× — ${verdict(s.p99Met)} |` +
        (s.valid ? '' : ' (INVALID: errors or non-2xx answers, see the runs)'),
    ),
    '',
    ...noiseNote(runs, env),
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${env.cores} × ${env.cpu} |`,
    `| memory | ${env.memoryGiB.toFixed(1)} GiB |`,
    `| OS | Linux ${env.kernel} |`,
    `| Node | ${env.node} |`,
    `| Postgres | ${env.postgres} |`,
    `| postgres.js | ${env.postgresJs} (patched, see below) |`,
    `| load generator | autocannon ${autocannonVersion} (programmatic, in the benchmark process) |`,
    '',
    'Load generator, service, baseline and Postgres share these cores, so absolute numbers are',
    'lower than on a dedicated setup; the ratios are the point, since both servers run under the same conditions.',
    '',
    '## Setup',
    '',
    `- **Service**: started as a user starts it — \`node --import tsx scripts/start.ts\` (what \`npm start\` / \`npx tsx scripts/start.ts\` runs, without the tsx CLI's wrapper process, so the measured pid is the server) — with \`NODE_ENV=production\`, web + worker in one process, default logging (pino, \`info\`, one JSON line per request; stdout to a file), pool of ${POOL_MAX} connections. \`RATE_LIMIT_PER_SECOND=${RATE_LIMIT}\` and \`RATE_LIMIT_BURST=${RATE_LIMIT}\`: the per-key limiter still runs on every request but never refuses one.`,
    `- **Baseline** (\`scripts/bench/baseline.ts\`): bare \`node:http\` + postgres.js, pool of ${POOL_MAX}, same queries per request: the key lookup by SHA-256 hash with scopes narrowed by memberships (the SQL of \`server/auth/principal.ts\`), then for \`/v1/me\` the key's JSON, for \`/v1/networks\` the keyset query (\`where id = any($ids) order by id limit 51\`) and the list envelope with an HMAC'd \`next_cursor\`. No tRPC, zod, OpenAPI adapter, request log or rate limiter. Before measuring, the benchmark checks that both answer with the same bodies.`,
    `- **Data**: a fresh database; ${settings.networks} networks created with \`POST /v1/networks\` (super_user key); a person who is administrator of all of them, with a key scoped to all of them (so every key lookup aggregates ${settings.networks} scope rows). All load uses that normal key.`,
    `- **Load**: ${settings.connections} connections, no pipelining; per target a ${settings.warmup} s warm-up per server, then ${settings.runs} × ${settings.duration} s runs per server, alternating service and baseline (the order flips every round). Latency percentiles come from every 2xx response time autocannon reports (fractional ms), not from its whole-millisecond histogram. Tables show medians over the runs.`,
    '',
    '## Results',
    '',
  );

  for (const s of summaries) {
    push(
      `### ${s.target.title}`,
      '',
      '| server | req/s (median) | req/s (min–max) | p50 ms | p99 ms | server CPU µs/req | Postgres CPU µs/req |',
      '|---|---|---|---|---|---|---|',
    );
    for (const name of ['service', 'baseline'] as const) {
      const p = s.per[name];
      push(`| ${name} | ${fmtInt(p.rpsMedian)} | ${fmtInt(p.rpsMin)}–${fmtInt(p.rpsMax)} | ${fmtMs(p.p50)} | ${fmtMs(p.p99)} | ${fmtInt(p.cpuUs)} | ${fmtInt(p.pgCpuUs)} |`);
    }
    push(
      `| **service/baseline** | **${s.throughputRatio.toFixed(2)}×** (≥ ${THROUGHPUT_TARGET}: ${verdict(s.throughputMet)}) | | ${(s.per.service.p50 / s.per.baseline.p50).toFixed(2)}× | **${s.p99Ratio.toFixed(2)}×** (≤ ${P99_TARGET}: ${verdict(s.p99Met)}) | ${(s.per.service.cpuUs / s.per.baseline.cpuUs).toFixed(2)}× | ${(s.per.service.pgCpuUs / s.per.baseline.pgCpuUs).toFixed(2)}× |`,
      '',
    );
  }

  push(
    '<details><summary>Every measured run</summary>',
    '',
    '| target | round | server | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | non-2xx | server CPU µs/req | Postgres CPU µs/req | client CPU % | other CPU % | RSS after MiB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.target} | ${r.round} | ${r.server} | ${fmtInt(r.rps)} | ${fmtMs(r.p50)} | ${fmtMs(r.p90)} | ${fmtMs(r.p99)} | ${fmtMs(r.max)} | ${r.errors} | ${r.non2xx} | ${fmtInt(r.serverCpuUsPerReq)} | ${fmtInt(r.pgCpuUsPerReq)} | ${Math.round(r.clientCpuPct)} | ${Math.round(r.otherCpuPct)} | ${fmtMiB(r.rssAfterKiB)} |`,
    ),
    '',
    '"server CPU" is user + system time of the server process (all its threads, from `/proc/<pid>/stat`) during the run divided by the requests served. "Postgres CPU" is the same for every `postgres` process on the machine (mostly the running server\'s pool backends). "client CPU" is the benchmark process (autocannon) in % of one core; "other CPU" is what the rest of the machine used meanwhile (from `/proc/stat`), i.e. noise from unrelated work.',
    '',
    '</details>',
    '',
    '## Memory (resident set size)',
    '',
    '| server | idle, after seeding | right after the load | highest after any run | peak (VmHWM) |',
    '|---|---|---|---|---|',
    ...(['service', 'baseline'] as const).map(
      (name) =>
        `| ${name} | ${fmtMiB(memory.idle[name]?.rssKiB ?? Number.NaN)} MiB | ${fmtMiB(memory.after[name]?.rssKiB ?? Number.NaN)} MiB | ${fmtMiB(memory.maxDuringKiB[name])} MiB | ${fmtMiB(memory.after[name]?.hwmKiB ?? Number.NaN)} MiB |`,
    ),
    '',
    `From \`/proc/<pid>/status\` of the serving process (service: \`${memory.serviceProcess}\`; ${memory.serviceChildren.length === 0 ? 'it had no child processes' : `its child processes, not counted: ${memory.serviceChildren.join('; ')}`}). The service's figure includes Next (console pages), the graphile-worker runner and the tRPC router; the baseline is node + postgres.js alone.`,
    '',
    '## postgres.js pool under sustained load (scripts/bench/pg-pool.ts)',
    '',
  );
  if (pool) {
    const trend = poolTrend(pool);
    const flat = trend >= POOL_TREND_LIMIT;
    push(
      `64 concurrent \`select 1\` on a ${POOL_MAX}-connection pool for ${settings.poolSeconds} s (run after both servers had stopped), queries/s per 5 s window:`,
      '',
      '| window | ' + pool.windows.map((_, i) => String(i + 1)).join(' | ') + ' |',
      '|---|' + pool.windows.map(() => '---').join('|') + '|',
      '| queries/s | ' + pool.windows.map(fmtInt).join(' | ') + ' |',
      '',
      `First window ${fmtInt(pool.first)}/s, last window ${fmtInt(pool.last)}/s, ratio last/first **${pool.ratio.toFixed(3)}**. ` +
        `Verdict on the median of the second half of the windows over that of the first half (one noisy 5 s window on a shared 2-core machine moves last/first by ±20 %): ` +
        `**${trend.toFixed(2)}** — ${flat ? `**flat** (≥ ${POOL_TREND_LIMIT}).` : `**DEGRADING** (< ${POOL_TREND_LIMIT}): is the patch applied? Run \`npx patch-package\`.`}` +
        ` Unrelated CPU use meanwhile: ${Math.round(poolOtherPct)} % of one core${poolOtherPct > NOISE_LIMIT_PCT ? ' — **the machine was busy; rerun before trusting the ratio**' : ''}.`,
      '',
      'Without the patch, postgres.js 3.4.9 decays steadily in this test, to well under half of its first window within 15–20 s; with it, windows only fluctuate.',
      '',
    );
  } else {
    push(`Not measured: ${poolError ?? 'skipped'}.`, '');
  }

  push(...creativeLines);

  push(
    '## Why the service is built this way',
    '',
    '- **/v1 is off Next\'s route-handler layer.** One custom `node:http` server (`server/http/server.ts`, started by `scripts/start.ts`) sends `/v1/*` straight to trpc-to-openapi\'s node-http handler (`server/http/rest.ts`) and `/api/trpc` to tRPC\'s node handler; only the console pages and `/docs` go to Next. On this machine a trivial JSON GET through a Next 16 route handler capped near 1,000–1,300 req/s (p50 24–28 ms) and through Next + `createOpenApiFetchHandler` near 900–970 req/s, against 4,900–5,600 req/s for the node-http OpenAPI handler (wrk -c32, measured when the architecture was chosen). Everything the service does beyond the baseline (tRPC, zod, the OpenAPI adapter, the problem-envelope wrapper, the request log, the rate limiter, and how its queries reach Postgres) shows up in the CPU columns above; the notes below the marker say where it goes.',
    '- **One indexed query per request for authentication**, never cached (revocation and removed memberships bite on the next request); `last_used_at` is written at most once a minute per key, off the request path. The rate limiter keeps token buckets in memory and syncs them to an UNLOGGED table every 250 ms in one statement, so no request waits on or writes to the database for it. Request logs are buffered pino writes (`sync: false`).',
    '- **postgres.js Queue patch** (`patches/postgres+3.4.9.patch`, applied by `patch-package` on install): 3.4.9\'s `Queue` keeps its consumed front until the queue fully drains and `remove()` scans the whole array, so a pool that stays busy gets slower by the second. The patch drops the consumed front once it is ≥ 1024 entries and ≥ half the array (amortised O(1) per shift); the pool benchmark above guards it.',
    '',
    '## Reproduce',
    '',
    '```sh',
    'npm run bench                      # full run, rewrites docs/PERFORMANCE.md above the marker (~8 min)',
    'BENCH_QUICK=1 npm run bench        # smoke run (~40 s); prints results, writes no report',
    'BENCH_DURATION=20 BENCH_RUNS=5 BENCH_CONNECTIONS=64 npm run bench   # other settings',
    '```',
    '',
    'Needs a Postgres on 127.0.0.1:5432 that user `postgres` can create databases on (`BENCH_PG_URL` to change); the database it creates is dropped at the end, also on failure or Ctrl-C.',
    '',
  );
  return lines.join('\n');
}

function writeReport(file: string, generated: string): void {
  let handWritten = '\n## Notes\n\n(Hand-written analysis goes here; `npm run bench` keeps this part.)\n';
  if (existsSync(file)) {
    const current = readFileSync(file, 'utf8');
    const at = current.indexOf(REPORT_MARKER);
    if (at >= 0) handWritten = current.slice(at + REPORT_MARKER.length);
  }
  writeFileSync(file, `${generated}\n${REPORT_MARKER}\n${handWritten.replace(/^\n*/, '\n')}`);
}

function printSummary(summaries: Summary[]): void {
  for (const s of summaries) {
    const a = s.per.service;
    const b = s.per.baseline;
    log(
      `${s.target.title}: service ${fmtInt(a.rpsMedian)} req/s p50 ${fmtMs(a.p50)} p99 ${fmtMs(a.p99)} ms | ` +
        `baseline ${fmtInt(b.rpsMedian)} req/s p50 ${fmtMs(b.p50)} p99 ${fmtMs(b.p99)} ms | ` +
        `throughput ${s.throughputRatio.toFixed(2)}× (${s.throughputMet ? 'met' : 'MISSED'}), p99 ${s.p99Ratio.toFixed(2)}× (${s.p99Met ? 'met' : 'MISSED'})` +
        (s.valid ? '' : ' INVALID (errors/non-2xx)'),
    );
  }
}

// ---------------------------------------------------------------- main

function benchCommand(): string {
  const vars = Object.keys(process.env)
    .filter((k) => k.startsWith('BENCH_'))
    .sort()
    .map((k) => `${k}=${process.env[k]}`);
  return [...vars, 'npm run bench'].join(' ');
}

function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return `\`${sha}\`${dirty ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
  if (os.loadavg()[0]! > os.cpus().length * 0.5) log(`warning: the machine is busy (load average ${loadBefore}); results will be noisy`);
  log(
    `${quick ? 'QUICK' : 'full'} mode: ${settings.runs} × ${settings.duration} s per server and target, warm-up ${settings.warmup} s, ` +
      `${settings.connections} connections, pool benchmark ${settings.poolSeconds} s; report: ${settings.report ?? '(none)'}`,
  );
  const dbName = `bench_${randomBytes(6).toString('hex')}`;
  const dbUrl = databaseUrl(settings.pgUrl, dbName);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'ad-bench-'));
  const admin = postgres(settings.pgUrl, { max: 1, onnotice: () => {} });
  const children: Child[] = [];
  let vendor: FakeVendor | undefined;
  let databaseCreated = false;
  let failed = true;

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(children.map((c) => stopChild(c).catch(() => undefined)));
      await vendor?.close().catch(() => undefined);
      if (databaseCreated) {
        try {
          await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
          log(`dropped database ${dbName}`);
        } catch (error) {
          log(`could not drop database ${dbName}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await admin.end({ timeout: 5 }).catch(() => undefined);
      if (failed || settings.keepLogs) log(`server logs kept in ${logDir}`);
      else rmSync(logDir, { recursive: true, force: true });
    })());
  // `on`, not `once`: Ctrl-C under `npm run`/tsx delivers SIGINT twice (terminal + the tsx
  // wrapper relaying it), and a second default-handled signal would kill us mid-cleanup.
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const [{ version: pgVersion }] = (await admin`select version()`) as unknown as [{ version: string }];
    await admin.unsafe(`create database "${dbName}"`);
    databaseCreated = true;
    log(`created database ${dbName}`);

    const superToken = testToken();
    const [servicePort, baselinePort] = [await freePort(), await freePort()];
    const serviceEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: dbUrl,
      DATABASE_POOL_MAX: String(POOL_MAX),
      HOST: '127.0.0.1',
      PORT: String(servicePort),
      BOOTSTRAP_SUPERUSER_TOKEN: superToken,
      RATE_LIMIT_PER_SECOND: RATE_LIMIT,
      RATE_LIMIT_BURST: RATE_LIMIT,
      ...investigation.serviceEnv,
    };
    const service = startChild('service', 'scripts/start.ts', serviceEnv, servicePort, logDir, investigation.serviceNodeArgs);
    children.push(service);
    log(`starting the service (pid ${service.pid}, port ${servicePort}; a first start may build the console)…`);
    await waitReady(service, superToken, settings.startTimeoutMs);
    log('service ready');

    const networkIds = await seedNetworks(service, superToken, settings.networks);
    const token = await createPersonKey(dbUrl, networkIds);
    log(`seeded ${networkIds.length} networks and a person key scoped to all of them`);

    const baseline = startChild(
      'baseline',
      'scripts/bench/baseline.ts',
      {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: dbUrl,
        DATABASE_POOL_MAX: String(POOL_MAX),
        HOST: '127.0.0.1',
        PORT: String(baselinePort),
        PREPARE: investigation.baselinePrepare ? '1' : '0',
      },
      baselinePort,
      logDir,
    );
    children.push(baseline);
    await waitReady(baseline, token, 60_000);
    log(`baseline ready (pid ${baseline.pid}, port ${baselinePort})`);
    await checkSameAnswers(service, baseline, token, settings.networks);
    log('service and baseline give the same answers');

    const byName: Record<ServerName, Child> = { service, baseline };
    await sleep(2_000);
    const memory: MemoryReport = {
      idle: { service: procMemory(service.pid), baseline: procMemory(baseline.pid) },
      after: { service: undefined, baseline: undefined },
      maxDuringKiB: { service: 0, baseline: 0 },
      serviceProcess: procCommand(service.pid).replace(root, '.'),
      serviceChildren: procChildren(service.pid).map((pid) => `${pid} ${procCommand(pid).replace(root, '.')}`),
    };

    const runs: RunResult[] = [];
    for (const target of TARGETS) {
      for (const name of ['service', 'baseline'] as const) {
        log(`${target.title}: warm-up ${name} ${settings.warmup} s`);
        await load(byName[name], target.path, token, settings.warmup);
      }
      for (let round = 1; round <= settings.runs; round++) {
        const order: ServerName[] = round % 2 === 1 ? ['service', 'baseline'] : ['baseline', 'service'];
        for (const name of order) {
          await sleep(1_000);
          const r = await load(byName[name], target.path, token, settings.duration);
          runs.push({ server: name, target: target.id, round, ...r });
          memory.maxDuringKiB[name] = Math.max(memory.maxDuringKiB[name], r.rssAfterKiB);
          log(
            `${target.title} round ${round} ${name.padEnd(8)}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms, ` +
              `server CPU ${fmtInt(r.serverCpuUsPerReq)} µs/req, Postgres CPU ${fmtInt(r.pgCpuUsPerReq)} µs/req, client CPU ${Math.round(r.clientCpuPct)} %, other ${Math.round(r.otherCpuPct)} %, RSS ${fmtMiB(r.rssAfterKiB)} MiB` +
              (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''),
          );
        }
      }
    }
    memory.after = { service: procMemory(service.pid), baseline: procMemory(baseline.pid) };
    const summaries = summarize(runs);

    log('stopping the servers before the pool benchmark');
    for (const child of children) await stopChild(child);
    for (const child of children) {
      if (child.exitCode !== 0) log(`note: ${child.name} exited with code ${child.exitCode} on SIGTERM`);
    }

    // ------------------------------------------------ creative generation overhead
    const creativeSummaries: CreativeSummary[] = [];
    let creativeError: string | undefined;
    const CREATIVE_WARMUP = 3;
    const workerConcurrency = serviceEnv.WORKER_CONCURRENCY ?? '5 (default)';
    try {
      vendor = await startFakeVendor(settings.vendorDelayMs);
      const creativePort = await freePort();
      const creativeService = startChild(
        'service-creatives',
        'scripts/start.ts',
        {
          ...serviceEnv,
          PORT: String(creativePort),
          SYNTH_PROVIDER: 'http',
          SYNTH_BASE_URL: vendor.url,
          SYNTH_API_KEY: 'bench',
          SYNTH_MAX_RETRIES: '0',
        },
        creativePort,
        logDir,
        investigation.serviceNodeArgs,
      );
      children.push(creativeService);
      log(`starting the service with SYNTH_PROVIDER=http (pid ${creativeService.pid}, port ${creativePort}; fake vendor ${vendor.url}, ${settings.vendorDelayMs} ms)…`);
      await waitReady(creativeService, superToken, settings.startTimeoutMs);
      const a = { baseUrl: creativeService.url, token: superToken };
      const plan = [
        { label: 'warm-up', concurrency: 1, count: CREATIVE_WARMUP },
        { label: 'sequential', concurrency: 1, count: settings.creatives },
        { label: 'concurrent', concurrency: settings.creativeConcurrency, count: settings.creatives },
      ];
      const prepared = [];
      for (const p of plan) prepared.push(await prepareOffers(a, p.count, p.label));
      log(`prepared ${plan.reduce((n, p) => n + p.count, 0)} offers`);
      for (const [i, p] of plan.entries()) {
        await sleep(1_000);
        const run = await runCreatives(a, vendor, prepared[i]!, p.concurrency, p.label);
        if (p.label === 'warm-up') continue;
        const summary = summarizeCreatives(run);
        creativeSummaries.push(summary);
        log(creativeLogLine(summary));
      }
      await stopChild(creativeService);
      if (creativeService.exitCode !== 0) log(`note: service-creatives exited with code ${creativeService.exitCode} on SIGTERM`);
    } catch (error) {
      creativeError = error instanceof Error ? error.message : String(error);
      log(`creative benchmark failed: ${creativeError}`);
      await Promise.all(children.map((c) => stopChild(c).catch(() => undefined)));
    } finally {
      await vendor?.close().catch(() => undefined);
      vendor = undefined;
    }
    const creativeLines = renderCreativeSection(creativeSummaries, {
      vendorDelayMs: settings.vendorDelayMs,
      warmup: CREATIVE_WARMUP,
      error: creativeError,
      workerConcurrency,
    });

    // ------------------------------------------------ webhook fan-out
    let fanout: FanoutResult | undefined;
    let fanoutError: string | undefined = process.env.BENCH_FANOUT === '0' ? 'skipped (BENCH_FANOUT=0)' : undefined;
    if (!fanoutError) {
      try {
        const fanoutPort = await freePort();
        const fanoutService = startChild(
          'service-webhooks',
          'scripts/start.ts',
          { ...serviceEnv, PORT: String(fanoutPort), WEBHOOK_ALLOW_PRIVATE: '1' },
          fanoutPort,
          logDir,
          investigation.serviceNodeArgs,
        );
        children.push(fanoutService);
        log(`starting the service with WEBHOOK_ALLOW_PRIVATE=1 (pid ${fanoutService.pid}, port ${fanoutPort}) for the webhook fan-out benchmark…`);
        await waitReady(fanoutService, superToken, settings.startTimeoutMs);
        fanout = await runWebhookFanout({ baseUrl: fanoutService.url, token: superToken }, dbUrl, fanoutService.pid, fanoutSettings(quick), { workerConcurrency, log });
        await stopChild(fanoutService);
        if (fanoutService.exitCode !== 0) log(`note: service-webhooks exited with code ${fanoutService.exitCode} on SIGTERM`);
      } catch (error) {
        fanoutError = error instanceof Error ? error.message : String(error);
        log(`webhook fan-out benchmark failed: ${fanoutError}`);
        await Promise.all(children.map((c) => stopChild(c).catch(() => undefined)));
      }
    }

    let pool: PoolBenchmarkResult | undefined;
    let poolError: string | undefined;
    let poolOtherPct = Number.NaN;
    try {
      log(`postgres.js pool benchmark, ${settings.poolSeconds} s`);
      // Snapshot at each window: the last one is taken before the benchmark closes its pool,
      // whose backends (and their CPU time) are gone once it returns.
      const snapshot = () => ({
        at: performance.now(),
        busy: machineBusyMs() - softirqThreadsCpuMs() - postgresCpuMs(),
        self: process.cpuUsage(),
      });
      const start = snapshot();
      let end = start;
      pool = await runPoolBenchmark({
        url: dbUrl,
        seconds: settings.poolSeconds,
        onWindow: (w) => {
          end = snapshot();
          log(`  pool window ${w.window}: ${fmtInt(w.qps)} queries/s`);
        },
      });
      const selfMs = (end.self.user - start.self.user + end.self.system - start.self.system) / 1000;
      poolOtherPct = Math.max(0, ((end.busy - start.busy - selfMs) / (end.at - start.at)) * 100);
      log(
        `pool: first ${fmtInt(pool.first)}/s, last ${fmtInt(pool.last)}/s, ratio ${pool.ratio}, ` +
          `second/first half ${poolTrend(pool).toFixed(2)}, other CPU ${Math.round(poolOtherPct)} %`,
      );
    } catch (error) {
      poolError = error instanceof Error ? error.message : String(error);
      log(`pool benchmark failed: ${poolError}`);
    }

    printSummary(summaries);
    for (const c of creativeSummaries) log(creativeLogLine(c));
    if (fanout) {
      for (const b of fanout.burst) log(burstLogLine(b));
      for (const st of fanout.steady) log(steadyLogLine(st));
      const v = fanoutVerdict(fanout);
      log(`fan-out: burst median ${Math.round(v.throughput)}/s (${v.throughputMet ? 'met' : 'MISSED'}), steady median p99 ${v.p99.toFixed(1)} ms (${v.p99Met ? 'met' : 'MISSED'})`);
    }
    if (settings.report) {
      const cpus = os.cpus();
      const postgresJs = (JSON.parse(readFileSync(path.join(root, 'node_modules', 'postgres', 'package.json'), 'utf8')) as { version: string }).version;
      const environment: Environment = {
        cpu: cpus[0]?.model.trim() ?? 'unknown',
        cores: cpus.length,
        memoryGiB: os.totalmem() / 1024 ** 3,
        kernel: os.release(),
        node: process.version,
        postgres: pgVersion,
        postgresJs,
        commit: gitCommit(),
        command: benchCommand(),
        date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        loadBefore,
      };
      const fanoutLines = renderWebhookSection(fanout, {
        error: fanoutError,
        command: environment.command,
        date: environment.date,
        machine: `${environment.cores} × ${environment.cpu}, Node ${environment.node}`,
      });
      writeReport(settings.report, renderReport(environment, runs, summaries, memory, pool, poolError, poolOtherPct, [...creativeLines, ...fanoutLines]));
      log(`wrote ${path.relative(process.cwd(), settings.report) || settings.report}`);
    }
    failed = !summaries.every((s) => s.valid) || creativeError !== undefined || (fanoutError !== undefined && process.env.BENCH_FANOUT !== '0');
    if (failed) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
