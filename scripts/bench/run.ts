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
 *     own `mintApiKey`, then an advertiser in each network; checks that service and baseline answer
 *     identically (GETs), create the same campaign and both store its sealed response on the key;
 *  4. autocannon (programmatic) with that normal key: GET /v1/me, GET /v1/networks?limit=50 and
 *     POST /v1/networks/{n}/campaigns (the networks in turn, a new Idempotency-Key per request via
 *     autocannon's `[<id>]` idReplacement), a warm-up per server, then BENCH_RUNS measured runs per
 *     server, alternating which goes first;
 *  5. RSS (VmRSS / VmHWM) idle and after load; server CPU time per request;
 *  5b. stops the baseline; offer list latency: in one network, an active campaign and an opted-in
 *     podcast over the API, then offers by one INSERT … SELECT generate_series (10 k, then grown to
 *     1 M), VACUUM ANALYZE + CHECKPOINT, and at each size GET …/offers?limit=50 first page and a deep
 *     page (a cursor, signed as the service signs it, naming the middle row), 1 connection;
 *  6. stops both servers; starts the service again (same database) with SYNTH_PROVIDER=http against
 *     a fake voice vendor and measures accept → creative ready minus the vendor's time
 *     (creative-overhead.ts), sequentially and at BENCH_CREATIVE_CONCURRENCY; stops it;
 *  7. starts the service again (same database) with WEBHOOK_ALLOW_PRIVATE=1 and runs the webhook
 *     fan-out benchmark (webhook-fanout.ts: signed deliveries/s in a burst, event → receipt latency
 *     at a steady event rate, to a signature-verifying node:http receiver); stops it;
 *  7b. starts the service again (same database) for the soak: a warm-up, then a steady mixed load
 *     (GET /me, GET /networks, POST campaigns with Idempotency-Key) at BENCH_SOAK_RATE req/s for
 *     BENCH_SOAK_SECONDS, RSS sampled every BENCH_SOAK_SAMPLE_SECONDS; stops it;
 *  8. runs the pg-pool benchmark, writes the report;
 *  9. always (finally, and on Ctrl-C): stops the servers and drops the database.
 *
 * Environment (all optional):
 *   BENCH_QUICK=1         smoke mode: 3 s runs, 1 run, 1 s warm-up, 5 s pool benchmark, 10 creatives
 *                         per creative run, 1 k / 100 k offers, a 20 s soak after 5 s warm-up, and the
 *                         report is NOT written unless BENCH_REPORT names a file
 *   BENCH_DURATION=10     seconds per measured run          BENCH_RUNS=3       runs per server and target
 *   BENCH_WARMUP=5        warm-up seconds per server/target BENCH_CONNECTIONS=32
 *   BENCH_POOL_SECONDS=20 pg-pool benchmark length          BENCH_NETWORKS=60
 *   BENCH_CREATIVES=40    offers accepted per creative run  BENCH_CREATIVE_CONCURRENCY=5
 *   BENCH_VENDOR_DELAY_MS=200  the fake voice vendor's fixed synthesis time (0 is allowed)
 *   BENCH_FANOUT_EVENTS=500 BENCH_FANOUT_SUBSCRIPTIONS=10 BENCH_FANOUT_RUNS=3   webhook burst: events × subscriptions, runs
 *   BENCH_FANOUT_RATE=100 BENCH_FANOUT_SECONDS=20 BENCH_FANOUT_STEADY_RUNS=3     webhook steady-rate latency runs
 *   BENCH_FANOUT=0        skip the webhook fan-out benchmark
 *   BENCH_OFFERS_SMALL=10000 BENCH_OFFERS_LARGE=1000000   offer list sizes (target: large/small p50 ≤ 1.2)
 *   BENCH_LIST_SECONDS=5  BENCH_LIST_CONNECTIONS=1        per list run (BENCH_RUNS runs per page and size)
 *   BENCH_LISTS=0         skip the offer list benchmark
 *   BENCH_SOAK_SECONDS=600 BENCH_SOAK_WARMUP=60 BENCH_SOAK_RATE=200 BENCH_SOAK_CONNECTIONS=8
 *   BENCH_SOAK_SAMPLE_SECONDS=10                          soak: measured length, warm-up, req/s, RSS sampling
 *   BENCH_SOAK=0          skip the soak
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
import { createHmac, randomBytes, randomInt } from 'node:crypto';
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
  { id: 'me', path: '/v1/me', title: 'GET /v1/me', write: false },
  { id: 'networks', path: '/v1/networks?limit=50', title: 'GET /v1/networks?limit=50', write: false },
  // Every request: a new Idempotency-Key (autocannon's `[<id>]` replacement), the networks in turn, each with its advertiser.
  { id: 'campaigns', path: '/v1/networks/{n}/campaigns', title: 'POST /v1/networks/{n}/campaigns (new Idempotency-Key each)', write: true },
] as const;
type TargetId = (typeof ALL_TARGETS)[number]['id'];
const TARGETS = ALL_TARGETS.filter((t) => investigation.targets.length === 0 || investigation.targets.includes(t.id));
type ServerName = 'service' | 'baseline';
const THROUGHPUT_TARGET = 0.5;
const WRITE_THROUGHPUT_TARGET = 0.7;
const P99_TARGET = 2;
const throughputTarget = (t: { write: boolean }) => (t.write ? WRITE_THROUGHPUT_TARGET : THROUGHPUT_TARGET);

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
        creator: 'platform',
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
interface AutocannonRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
type Autocannon = (
  opts: {
    url: string;
    connections: number;
    duration: number;
    pipelining: number;
    headers: Record<string, string>;
    requests?: AutocannonRequest[];
    idReplacement?: boolean;
    overallRate?: number;
  },
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

/**
 * What one load run sends: GETs of one path, or (`requests`) autocannon's request list, cycled per
 * connection; `idReplacement` turns every `[<id>]` into a fresh unique id per request.
 */
interface LoadSpec {
  path: string;
  token: string;
  requests?: AutocannonRequest[];
  connections?: number;
}

async function load(child: Child, spec: LoadSpec, seconds: number): Promise<Omit<RunResult, 'server' | 'target' | 'round'>> {
  const { path, token } = spec;
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
        connections: spec.connections ?? settings.connections,
        duration: seconds,
        pipelining: 1,
        headers: { authorization: `Bearer ${token}` },
        ...(spec.requests ? { requests: spec.requests, idReplacement: true } : {}),
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

// ---------------------------------------------------------------- POST campaigns: seeding and requests

/** One live advertiser per network, over the API (the person key is administrator of every network). */
async function seedAdvertisers(service: Child, token: string, networkIds: string[]): Promise<string[]> {
  const ids: string[] = new Array(networkIds.length);
  let next = 0;
  const worker = async () => {
    while (next < networkIds.length) {
      const i = next++;
      const { status, body } = await call(`${service.url}/v1/networks/${networkIds[i]}/advertisers`, token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Bench advertiser ${i + 1}` }),
      });
      if (status !== 201) throw new Error(`POST advertisers answered ${status}: ${JSON.stringify(body)}`);
      ids[i] = (body as { id: string }).id;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ids;
}

const CAMPAIGN_BODY = (advertiserId: string) => JSON.stringify({ name: 'Bench campaign', advertiser_id: advertiserId, script: 'Acme makes mornings better.' });

/** POST a campaign to each network in turn, each request with a fresh Idempotency-Key (`[<id>]`, replaced per request). */
function campaignRequests(token: string, networkIds: string[], advertiserIds: string[]): AutocannonRequest[] {
  return networkIds.map((n, i) => ({
    method: 'POST',
    path: `/v1/networks/${n}/campaigns`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'bench-[<id>]' },
    body: CAMPAIGN_BODY(advertiserIds[i]!),
  }));
}

/** Both servers create the same campaign and settle the Idempotency-Key with the stored response. */
async function checkSameCampaign(service: Child, baseline: Child, token: string, networkId: string, advertiserId: string, db: postgres.Sql): Promise<void> {
  const post = (child: Child, key: string) =>
    call(`${child.url}/v1/networks/${networkId}/campaigns`, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: CAMPAIGN_BODY(advertiserId),
    });
  const keys = { service: `check-service-${randomBytes(8).toString('hex')}`, baseline: `check-baseline-${randomBytes(8).toString('hex')}` };
  const [s, b] = [await post(service, keys.service), await post(baseline, keys.baseline)];
  if (s.status !== 201 || b.status !== 201) throw new Error(`POST campaigns: service ${s.status}, baseline ${b.status}: ${JSON.stringify(s.body)} ${JSON.stringify(b.body)}`);
  const strip = (body: unknown) => {
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = body as Record<string, unknown>;
    return rest;
  };
  if (!isDeepStrictEqual(strip(s.body), strip(b.body))) {
    throw new Error(`POST campaigns differs:\nservice  ${JSON.stringify(s.body)}\nbaseline ${JSON.stringify(b.body)}`);
  }
  const rows = await db<Array<{ key: string; state: string; response_status: number | null; sealed: boolean }>>`
    select key, state, response_status, (response_body #>> '{}') like 'v1.%' as sealed
    from idempotency_keys where key in ${db([keys.service, keys.baseline])}`;
  for (const [name, key] of Object.entries(keys)) {
    const row = rows.find((r) => r.key === key);
    if (!row || row.state !== 'done' || row.response_status !== 201 || !row.sealed) {
      throw new Error(`${name} did not store its sealed response on the Idempotency-Key: ${JSON.stringify(row)}`);
    }
  }
  const replay = await post(service, keys.service);
  if (replay.status !== 201 || !isDeepStrictEqual(replay.body, s.body)) throw new Error(`the service did not replay the stored response: ${replay.status}`);
}

// ---------------------------------------------------------------- offer list latency at two sizes

const LIST_RATIO_TARGET = 1.2;
const OFFER_SIZES = [
  Math.round(numberEnv('BENCH_OFFERS_SMALL', quick ? 1_000 : 10_000)),
  Math.round(numberEnv('BENCH_OFFERS_LARGE', quick ? 100_000 : 1_000_000)),
] as const;
const LIST_SECONDS = numberEnv('BENCH_LIST_SECONDS', quick ? 2 : 5);
const LIST_CONNECTIONS = Math.round(numberEnv('BENCH_LIST_CONNECTIONS', 1));
const LIST_LIMIT = 50;
const fmtRows = (n: number) => (n >= 1e6 && n % 1e5 === 0 ? `${n / 1e6} M` : n >= 1e3 && n % 100 === 0 ? `${n / 1e3} k` : fmtInt(n));
/**
 * Offer n (1-based) of the measured network has id number 2n, and another network's offer n has 2n − 1:
 * the two lists interleave in the table and its primary key, as networks' offers do in production.
 * Zero-padded digits sort like the numbers and are valid id characters.
 */
const seededOfferId = (n: number) => `off_${String(2 * n).padStart(26, '0')}`;

type ListPage = 'first' | 'deep';
interface ListRun {
  size: number;
  page: ListPage;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}
interface ListResult {
  networkId: string;
  seeds: Array<{ size: number; rows: number; ms: number; maintenanceMs: number }>;
  runs: ListRun[];
  plans: Array<{ size: number; plan: string }>;
}

/** The service's cursor (server/http/pagination.ts): base64url(last id) . base64url(HMAC(HMAC(root, 'cursor'), scope \0 body)[0..16]). */
function offerCursor(rootSecret: string, scope: string, lastId: string): string {
  const body = Buffer.from(lastId).toString('base64url');
  const key = createHmac('sha256', rootSecret).update('cursor').digest();
  return `${body}.${createHmac('sha256', key).update(scope).update('\0').update(body).digest().subarray(0, 16).toString('base64url')}`;
}

async function runOfferLists(
  service: Child,
  token: string,
  db: postgres.Sql,
  networks: Array<{ networkId: string; advertiserId: string }>,
  appSecret: string | undefined,
): Promise<ListResult> {
  const api = async <T>(networkId: string, method: string, p: string, body?: unknown): Promise<T> => {
    const r = await call(`${service.url}/v1/networks/${networkId}${p}`, token, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  // [0]: the network whose list is measured; [1]: another network whose offers interleave with it.
  const parents: Array<{ networkId: string; campaignId: string; podcastId: string }> = [];
  for (const { networkId, advertiserId } of networks) {
    const campaign = await api<{ id: string }>(networkId, 'POST', '/campaigns', { name: 'Bench list campaign', advertiser_id: advertiserId, status: 'active' });
    const podcast = await api<{ id: string }>(networkId, 'POST', '/podcasts', { name: 'Bench list podcast', host_name: 'Sam' });
    await api(networkId, 'POST', `/podcasts/${podcast.id}/opt-in`);
    parents.push({ networkId, campaignId: campaign.id, podcastId: podcast.id });
  }
  const [mine, other] = parents as [(typeof parents)[0], (typeof parents)[0]];
  const networkId = mine.networkId;
  const rootSecret =
    appSecret ?? (await db<Array<{ value: string }>>`select value from instance_secrets where name = 'app_secret_key'`)[0]?.value;
  if (!rootSecret) throw new Error('no app secret to sign list cursors with');
  const scope = `offers:${networkId}:::`;
  const listPath = `/v1/networks/${networkId}/offers?limit=${LIST_LIMIT}`;
  const result: ListResult = { networkId, seeds: [], runs: [], plans: [] };
  let seeded = 0;
  for (const size of OFFER_SIZES) {
    const t0 = performance.now();
    await db`
      insert into offers (id, network_id, campaign_id, podcast_id, status, price_cents, currency)
      select 'off_' || lpad((2 * g - o.other)::text, 26, '0'),
        case when o.other = 0 then ${mine.networkId} else ${other.networkId} end,
        case when o.other = 0 then ${mine.campaignId} else ${other.campaignId} end,
        case when o.other = 0 then ${mine.podcastId} else ${other.podcastId} end,
        'open', 2500, 'USD'
      from generate_series(${seeded + 1}::int, ${size}::int) g cross join (values (0), (1)) as o(other)`;
    const ms = performance.now() - t0;
    // What autovacuum would do to a table this size soon after; and no checkpoint of the load's WAL during the timing.
    const t1 = performance.now();
    await db.unsafe('vacuum analyze offers');
    await db.unsafe('checkpoint');
    result.seeds.push({ size, rows: 2 * (size - seeded), ms, maintenanceMs: performance.now() - t1 });
    log(
      `offers: inserted ${fmtInt(2 * (size - seeded))} rows (two networks) in ${(ms / 1000).toFixed(1)} s (vacuum analyze + checkpoint ${((performance.now() - t1) / 1000).toFixed(1)} s); ${fmtInt(size)} in the measured list`,
    );
    seeded = size;

    // Check the cursor the benchmark signs against the one the service hands out, and the deep page against the data.
    const first = await call(`${service.url}${listPath}`, token);
    const firstPage = first.body as { items: Array<{ id: string }>; next_cursor: string | null };
    if (first.status !== 200 || firstPage.items.length !== LIST_LIMIT || firstPage.items[0]!.id !== seededOfferId(1)) {
      throw new Error(`first page of offers: ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
    }
    if (firstPage.next_cursor !== offerCursor(rootSecret, scope, firstPage.items[LIST_LIMIT - 1]!.id)) {
      throw new Error('the benchmark signs offer cursors differently from the service (server/http/pagination.ts changed?)');
    }
    const middle = Math.floor(size / 2);
    const deepPath = `${listPath}&cursor=${offerCursor(rootSecret, scope, seededOfferId(middle))}`;
    const deep = await call(`${service.url}${deepPath}`, token);
    const deepPage = deep.body as { items: Array<{ id: string }> };
    if (deep.status !== 200 || deepPage.items.length !== LIST_LIMIT || deepPage.items[0]!.id !== seededOfferId(middle + 1)) {
      throw new Error(`deep page of offers: ${deep.status} ${JSON.stringify(deep.body).slice(0, 300)}`);
    }
    const plan = await db.unsafe<Array<{ 'QUERY PLAN': string }>>(
      `explain (analyze, buffers, costs off) select * from offers where network_id = $1 and id > $2 order by id limit ${LIST_LIMIT + 1}`,
      [networkId, seededOfferId(middle)],
    );
    result.plans.push({ size, plan: plan.map((r) => r['QUERY PLAN']).join('\n') });

    for (const [page, p] of [
      ['first', listPath],
      ['deep', deepPath],
    ] as const) {
      await load(service, { path: p, token, connections: LIST_CONNECTIONS }, Math.min(settings.warmup, 2));
      for (let round = 1; round <= settings.runs; round++) {
        const r = await load(service, { path: p, token, connections: LIST_CONNECTIONS }, LIST_SECONDS);
        result.runs.push({ size, page, round, rps: r.rps, p50: r.p50, p99: r.p99, max: r.max, failures: r.errors + r.non2xx });
        log(`offers ${fmtRows(size)} ${page} page round ${round}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms` + (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''));
      }
    }
  }
  return result;
}

interface ListSummary {
  page: ListPage;
  small: { p50: number; p99: number; rps: number };
  large: { p50: number; p99: number; rps: number };
  p50Ratio: number;
  p99Ratio: number;
  met: boolean;
  valid: boolean;
}

function summarizeLists(r: ListResult): ListSummary[] {
  return (['first', 'deep'] as const).map((page) => {
    const at = (size: number) => {
      const rs = r.runs.filter((x) => x.page === page && x.size === size);
      return { p50: median(rs.map((x) => x.p50)), p99: median(rs.map((x) => x.p99)), rps: median(rs.map((x) => x.rps)) };
    };
    const small = at(OFFER_SIZES[0]);
    const large = at(OFFER_SIZES[1]);
    const p50Ratio = large.p50 / small.p50;
    return {
      page,
      small,
      large,
      p50Ratio,
      p99Ratio: large.p99 / small.p99,
      met: p50Ratio <= LIST_RATIO_TARGET,
      valid: r.runs.filter((x) => x.page === page).every((x) => x.failures === 0),
    };
  });
}

function renderListSection(r: ListResult | undefined, error: string | undefined): string[] {
  const lines = ['## Offer list latency at two sizes (keyset pagination)', ''];
  if (!r) return [...lines, `Not measured: ${error ?? 'skipped'}.`, ''];
  const sums = summarizeLists(r);
  const [small, large] = OFFER_SIZES;
  lines.push(
    `Target: page latency (p50) with ${fmtRows(large)} offers in the list ≤ ${LIST_RATIO_TARGET}× that with ${fmtRows(small)}. **Verdict: ${sums.every((s) => s.met && s.valid) ? 'met' : 'MISSED'}.**`,
    '',
    `| page | ${fmtRows(small)} rows p50 / p99 ms | ${fmtRows(large)} rows p50 / p99 ms | ratio p50 | ratio p99 | ≤ ${LIST_RATIO_TARGET} (p50) |`,
    '|---|---|---|---|---|---|',
    ...sums.map(
      (s) =>
        `| ${s.page === 'first' ? 'first page' : 'deep page (cursor from the middle)'} | ${fmtMs(s.small.p50)} / ${fmtMs(s.small.p99)} | ${fmtMs(s.large.p50)} / ${fmtMs(s.large.p99)} | **${s.p50Ratio.toFixed(2)}×** | ${s.p99Ratio.toFixed(2)}× | ${verdict(s.met)}${s.valid ? '' : ' (INVALID: errors or non-2xx)'} |`,
    ),
    '',
    `- **What**: \`GET /v1/networks/{n}/offers?limit=${LIST_LIMIT}\` on the service started above, with the person's key; the first page, and a deep page whose cursor names the offer in the middle of the list (row ${fmtInt(Math.floor(small / 2))} of ${fmtRows(small)}, row ${fmtInt(Math.floor(large / 2))} of ${fmtRows(large)}). The benchmark signs that cursor as the service does, after checking its signature of page 1's last id against the service's own \`next_cursor\`, and checks the deep page starts at the next row. ${LIST_CONNECTIONS} connection${LIST_CONNECTIONS === 1 ? '' : 's'} (latency, not throughput), a short warm-up, then ${settings.runs} × ${LIST_SECONDS} s per page and size; medians over the runs.`,
    `- **Data**: two of the ${settings.networks} networks, each with an active campaign and an opted-in podcast made over the API, then offers inserted by one \`INSERT … SELECT … generate_series\` per size, the same number for each network, their ids interleaved (\`off_\` + 26 zero-padded digits: even numbers for the measured network, odd for the other, so each list's id order is insertion order and the primary key mixes both, as networks' offers mix in production): ${r.seeds.map((s) => `${fmtInt(s.rows)} rows in ${(s.ms / 1000).toFixed(1)} s`).join(', then ')} (growing the measured list from ${fmtRows(small)} to ${fmtRows(large)}, the table from ${fmtRows(2 * small)} to ${fmtRows(2 * large)}). After each insert \`VACUUM ANALYZE offers\` and \`CHECKPOINT\` (${r.seeds.map((s) => `${(s.maintenanceMs / 1000).toFixed(1)} s`).join(', ')}), so the timing sees a table as autovacuum leaves it and no checkpoint of the load's WAL.`,
    '',
    '<details><summary>Plan of the deep-page query (EXPLAIN ANALYZE, the shape the service runs)</summary>',
    '',
    ...r.plans.flatMap((p) => [`${fmtRows(p.size)} rows:`, '', '```', p.plan, '```', '']),
    '</details>',
    '',
    '<details><summary>Every measured run</summary>',
    '',
    '| rows | page | round | req/s | p50 ms | p99 ms | max ms | failures |',
    '|---|---|---|---|---|---|---|---|',
    ...r.runs.map((x) => `| ${fmtRows(x.size)} | ${x.page} | ${x.round} | ${fmtInt(x.rps)} | ${fmtMs(x.p50)} | ${fmtMs(x.p99)} | ${fmtMs(x.max)} | ${x.failures} |`),
    '',
    '</details>',
    '',
  );
  return lines;
}

// ---------------------------------------------------------------- soak

const SOAK = {
  enabled: process.env.BENCH_SOAK !== '0',
  seconds: numberEnv('BENCH_SOAK_SECONDS', quick ? 20 : 600),
  warmup: numberEnv('BENCH_SOAK_WARMUP', quick ? 5 : 60),
  rate: Math.round(numberEnv('BENCH_SOAK_RATE', 200)),
  connections: Math.round(numberEnv('BENCH_SOAK_CONNECTIONS', 8)),
  sampleSeconds: numberEnv('BENCH_SOAK_SAMPLE_SECONDS', quick ? 2 : 10),
};
/** End RSS at most this much above the post-warm-up RSS … */
const SOAK_GROWTH_LIMIT = 0.1;
/** … and the last half's slope at most this fraction of the post-warm-up RSS per minute (would take ≥ 10 min to grow 10 %). */
const SOAK_SLOPE_LIMIT = 0.01;

interface SoakResult {
  samples: Array<{ atS: number; rssKiB: number }>;
  /** readings in the start and end medians */
  window: number;
  startKiB: number;
  endKiB: number;
  maxKiB: number;
  hwmKiB: number;
  slopeMiBPerMin: number;
  rps: number;
  ok: number;
  failures: number;
  p50: number;
  p99: number;
  networks: number;
}

function soakVerdict(s: SoakResult): { growth: number; growthMet: boolean; slopeMet: boolean; met: boolean } {
  const growth = s.endKiB / s.startKiB - 1;
  const growthMet = growth <= SOAK_GROWTH_LIMIT;
  const slopeMet = s.slopeMiBPerMin <= (SOAK_SLOPE_LIMIT * s.startKiB) / 1024;
  return { growth, growthMet, slopeMet, met: growthMet && slopeMet && s.failures === 0 };
}

/** Least-squares slope of RSS over time, MiB per minute. */
function slopeMiBPerMin(samples: Array<{ atS: number; rssKiB: number }>): number {
  const n = samples.length;
  if (n < 2) return Number.NaN;
  const mx = samples.reduce((a, s) => a + s.atS, 0) / n;
  const my = samples.reduce((a, s) => a + s.rssKiB, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.atS - mx) * (s.rssKiB - my);
    den += (s.atS - mx) ** 2;
  }
  return den === 0 ? Number.NaN : ((num / den) * 60) / 1024;
}

/** Mixed steady load (GET /v1/me, GET /v1/networks?limit=50, POST a campaign with a new Idempotency-Key) at a fixed rate. */
function soakRequests(token: string, networkIds: string[], advertiserIds: string[]): AutocannonRequest[] {
  const auth = { authorization: `Bearer ${token}` };
  const posts = campaignRequests(token, networkIds, advertiserIds).slice(0, 10);
  return posts.flatMap((post) => [
    { method: 'GET', path: '/v1/me', headers: auth },
    { method: 'GET', path: '/v1/networks?limit=50', headers: auth },
    post,
  ]);
}

async function mixedLoad(
  child: Child,
  requests: AutocannonRequest[],
  seconds: number,
  onSample?: (atS: number) => void,
): Promise<{ rps: number; ok: number; failures: number; p50: number; p99: number }> {
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const t0 = performance.now();
  const timer = onSample ? setInterval(() => onSample((performance.now() - t0) / 1000), SOAK.sampleSeconds * 1000) : undefined;
  try {
    const result = await new Promise<AutocannonResult>((resolve, reject) => {
      const tracker = autocannon(
        { url: child.url, connections: SOAK.connections, duration: seconds, pipelining: 1, headers: {}, requests, idReplacement: true, overallRate: SOAK.rate },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
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
    const sorted = latencies.subarray(0, n).sort();
    const duration = result.duration > 0 ? result.duration : (performance.now() - t0) / 1000;
    return {
      rps: result['2xx'] / duration,
      ok: result['2xx'],
      failures: result.errors + result.timeouts + result.non2xx,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
    };
  } finally {
    if (timer) clearInterval(timer);
  }
}

async function runSoak(child: Child, token: string, networkIds: string[], advertiserIds: string[]): Promise<SoakResult> {
  const requests = soakRequests(token, networkIds, advertiserIds);
  log(`soak: warm-up ${SOAK.warmup} s at ${SOAK.rate} req/s`);
  const warm = await mixedLoad(child, requests, SOAK.warmup);
  if (warm.failures > 0) throw new Error(`soak warm-up: ${warm.failures} failed requests`);
  const rss = () => procMemory(child.pid)?.rssKiB ?? Number.NaN;
  const samples = [{ atS: 0, rssKiB: rss() }];
  log(`soak: ${SOAK.seconds} s at ${SOAK.rate} req/s, RSS every ${SOAK.sampleSeconds} s; start ${fmtMiB(samples[0]!.rssKiB)} MiB`);
  const r = await mixedLoad(child, requests, SOAK.seconds, (atS) => {
    samples.push({ atS, rssKiB: rss() });
    if (samples.length % 6 === 0) log(`soak: ${Math.round(atS)} s, RSS ${fmtMiB(samples[samples.length - 1]!.rssKiB)} MiB`);
  });
  // The end reading replaces a timer reading taken in the last moments of the run.
  if (samples.length > 1 && samples[samples.length - 1]!.atS > SOAK.seconds - SOAK.sampleSeconds / 2) samples.pop();
  samples.push({ atS: SOAK.seconds, rssKiB: rss() });
  const lastHalf = samples.filter((s) => s.atS >= SOAK.seconds / 2);
  // Start and end are medians of the first and last tenth of the readings (at least 3), so one
  // reading at the top or bottom of a GC sawtooth does not decide the verdict.
  const k = Math.min(samples.length, Math.max(3, Math.round(samples.length / 10)));
  return {
    samples,
    window: k,
    startKiB: median(samples.slice(0, k).map((x) => x.rssKiB)),
    endKiB: median(samples.slice(-k).map((x) => x.rssKiB)),
    maxKiB: Math.max(...samples.map((s) => s.rssKiB)),
    hwmKiB: procMemory(child.pid)?.hwmKiB ?? Number.NaN,
    slopeMiBPerMin: slopeMiBPerMin(lastHalf),
    rps: r.rps,
    ok: r.ok,
    failures: r.failures,
    p50: r.p50,
    p99: r.p99,
    networks: Math.min(10, networkIds.length),
  };
}

function soakLogLine(s: SoakResult): string {
  const v = soakVerdict(s);
  return (
    `soak: RSS start ${fmtMiB(s.startKiB)} MiB, end ${fmtMiB(s.endKiB)} MiB (${v.growth >= 0 ? '+' : ''}${(v.growth * 100).toFixed(1)} %), max ${fmtMiB(s.maxKiB)} MiB, ` +
    `last-half slope ${s.slopeMiBPerMin.toFixed(2)} MiB/min; ${fmtInt(s.rps)} req/s, p50 ${fmtMs(s.p50)} p99 ${fmtMs(s.p99)} ms, ${s.failures} failures — ${v.met ? 'met' : 'MISSED'}`
  );
}

function renderSoakSection(s: SoakResult | undefined, error: string | undefined): string[] {
  const lines = ['## Memory over a soak', ''];
  if (!s) return [...lines, `Not measured: ${error ?? 'skipped'}.`, ''];
  const v = soakVerdict(s);
  const limitMiBPerMin = (SOAK_SLOPE_LIMIT * s.startKiB) / 1024;
  lines.push(
    `Target: no memory growth — defined as RSS at the end ≤ ${100 + SOAK_GROWTH_LIMIT * 100} % of RSS after the warm-up (each the median of ${s.window} readings: the first and the last ${s.window}) **and** the least-squares slope of RSS over the second half of the soak ≤ ${SOAK_SLOPE_LIMIT * 100} % of the post-warm-up RSS per minute (${limitMiBPerMin.toFixed(1)} MiB/min here: at that rate it would take ≥ 10 minutes to grow 10 %), with no failed request. **Verdict: ${v.met ? 'met' : 'MISSED'}.**`,
    '',
    '| duration | RSS after warm-up (median, first readings) | RSS at end (median, last readings) | change | max | last-half slope | peak (VmHWM) | load | p50 / p99 ms | failures |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| ${Math.round(SOAK.seconds)} s | ${fmtMiB(s.startKiB)} MiB | ${fmtMiB(s.endKiB)} MiB | ${v.growth >= 0 ? '+' : ''}${(v.growth * 100).toFixed(1)} % (${verdict(v.growthMet)}) | ${fmtMiB(s.maxKiB)} MiB | ${s.slopeMiBPerMin.toFixed(2)} MiB/min (${verdict(v.slopeMet)}) | ${fmtMiB(s.hwmKiB)} MiB | ${fmtInt(s.rps)} req/s, ${fmtInt(s.ok)} requests | ${fmtMs(s.p50)} / ${fmtMs(s.p99)} | ${s.failures} |`,
    '',
    `- **How**: a fresh start of the service (same command, settings and database as above), then a steady mixed load at ${SOAK.rate} req/s over ${SOAK.connections} connections (autocannon \`overallRate\`): in turn \`GET /v1/me\`, \`GET /v1/networks?limit=50\` and \`POST /v1/networks/{n}/campaigns\` with a new Idempotency-Key (${s.networks} networks in turn), so a third of the requests write a campaign and an idempotency row. ${SOAK.warmup} s of that load as warm-up (JIT, pools, caches), then ${SOAK.seconds} s measured, RSS (VmRSS of the server process) read every ${SOAK.sampleSeconds} s.`,
    '- RSS is what the OS sees; a JavaScript heap that grows is visible there, but V8 and glibc also keep freed memory for reuse, so RSS can step up once and then stay flat — the slope over the second half is the leak signal, the end/start ratio the bound.',
    '',
    '<details><summary>RSS samples (MiB)</summary>',
    '',
    '| s | ' + s.samples.map((x) => String(Math.round(x.atS))).join(' | ') + ' |',
    '|---|' + s.samples.map(() => '---').join('|') + '|',
    '| RSS | ' + s.samples.map((x) => fmtMiB(x.rssKiB)).join(' | ') + ' |',
    '',
    '</details>',
    '',
  );
  return lines;
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
      throughputMet: throughputRatio >= throughputTarget(target),
      p99Met: p99Ratio <= P99_TARGET,
      valid: per.service.failures === 0 && per.baseline.failures === 0,
    };
  });
}

const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a');
const fmtMiB = (kib: number) => (Number.isFinite(kib) ? (kib / 1024).toFixed(0) : 'n/a');
const verdict = (met: boolean) => (met ? '**met**' : '**MISSED**');

/** A target outside the service/baseline table (offer lists, soak), for the verdict at the top. */
interface OtherVerdict {
  title: string;
  result: string;
  met: boolean;
}

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
  memoryLines: string[],
  others: OtherVerdict[],
  creativeLines: string[],
): string {
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);
  const allMet = summaries.every((s) => s.valid && s.throughputMet && s.p99Met) && others.every((o) => o.met);

  push(
    '# Performance',
    '',
    '<!-- Generated by `npm run bench` (scripts/bench/run.ts). Do not edit above the END OF GENERATED REPORT marker: a rerun rewrites it. -->',
    '',
    `Measured ${env.date} with \`${env.command}\` at commit ${env.commit}.`,
    '',
    `**Verdict: ${allMet ? 'all targets met' : 'some targets MISSED'}** (targets: service throughput ≥ ${THROUGHPUT_TARGET}× the baseline's for reads and ≥ ${WRITE_THROUGHPUT_TARGET}× for writes, service p99 latency ≤ ${P99_TARGET}× the baseline's; offer list latency at ${fmtRows(OFFER_SIZES[1])} rows ≤ ${LIST_RATIO_TARGET}× that at ${fmtRows(OFFER_SIZES[0])}; no memory growth over the soak).`,
    '',
    '| target | throughput service/baseline | p99 service/baseline |',
    '|---|---|---|',
    ...summaries.map(
      (s) =>
        `| ${s.target.title} | ${s.throughputRatio.toFixed(2)}× — ${verdict(s.throughputMet)} | ${s.p99Ratio.toFixed(2)}× — ${verdict(s.p99Met)} |` +
        (s.valid ? '' : ' (INVALID: errors or non-2xx answers, see the runs)'),
    ),
    '',
    '| other target | result |',
    '|---|---|',
    ...others.map((o) => `| ${o.title} | ${o.result} |`),
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
    `- **Baseline** (\`scripts/bench/baseline.ts\`): bare \`node:http\` + postgres.js, pool of ${POOL_MAX}, same queries per request: the key lookup by SHA-256 hash with scopes narrowed by memberships (the SQL of \`server/auth/principal.ts\`), then for \`/v1/me\` the key's JSON, for \`/v1/networks\` the keyset query (\`where id = any($ids) order by id limit 51\`) and the list envelope with an HMAC'd \`next_cursor\`. For \`POST …/campaigns\` the statements the service runs, in its order: the key lookup; the Idempotency-Key reservation (\`INSERT … ON CONFLICT DO NOTHING RETURNING\`, its own autocommit statement, as in \`server/http/idempotency.ts\`); one transaction with the advertiser \`SELECT … FOR SHARE\` (same network, not deleted) and the campaign \`INSERT … RETURNING\`; then the response sealed with AES-256-GCM and stored on the key (\`UPDATE\`, autocommit) before it is sent. The service writes no audit row for a new campaign, so neither does the baseline. No tRPC, zod, OpenAPI adapter, request log or rate limiter. Before measuring, the benchmark checks that both answer with the same bodies, that both create the same campaign and leave a \`done\` key holding a sealed 201, and that the service replays it.`,
    `- **Data**: a fresh database; ${settings.networks} networks created with \`POST /v1/networks\` (super_user key); a person who is administrator of all of them, with a key scoped to all of them (so every key lookup aggregates ${settings.networks} scope rows); an advertiser in each network. All load uses that normal key. \`POST …/campaigns\` goes to the networks in turn (each connection cycles through all ${settings.networks}), with that network's advertiser and a new \`Idempotency-Key\` per request (autocannon's \`[<id>]\` replacement), so every request creates a campaign and an idempotency row; campaigns and keys accumulate over the runs in both servers' turns.`,
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
      `| **service/baseline** | **${s.throughputRatio.toFixed(2)}×** (≥ ${throughputTarget(s.target)}: ${verdict(s.throughputMet)}) | | ${(s.per.service.p50 / s.per.baseline.p50).toFixed(2)}× | **${s.p99Ratio.toFixed(2)}×** (≤ ${P99_TARGET}: ${verdict(s.p99Met)}) | ${(s.per.service.cpuUs / s.per.baseline.cpuUs).toFixed(2)}× | ${(s.per.service.pgCpuUs / s.per.baseline.pgCpuUs).toFixed(2)}× |`,
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
  );
  push(...memoryLines);
  push(
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
    'npm run bench                      # full run, rewrites docs/PERFORMANCE.md above the marker (~25 min, 11 of them the soak)',
    'BENCH_QUICK=1 npm run bench        # smoke run (~3 min); prints results, writes no report',
    'BENCH_SOAK=0 npm run bench         # without the 10-minute soak',
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
  let benchDb: postgres.Sql | undefined;
  let databaseCreated = false;
  let failed = true;

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await Promise.all(children.map((c) => stopChild(c).catch(() => undefined)));
      await vendor?.close().catch(() => undefined);
      await benchDb?.end({ timeout: 5 }).catch(() => undefined);
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
    const advertiserIds = await seedAdvertisers(service, token, networkIds);
    log(`seeded ${networkIds.length} networks, a person key scoped to all of them and an advertiser in each`);
    benchDb = postgres(dbUrl, { max: 2, onnotice: () => {} });
    const db = benchDb;

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
    await checkSameCampaign(service, baseline, token, networkIds[0]!, advertiserIds[0]!, db);
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
    const specFor = (target: (typeof ALL_TARGETS)[number]): LoadSpec =>
      target.id === 'campaigns' ? { path: '/', token, requests: campaignRequests(token, networkIds, advertiserIds) } : { path: target.path, token };
    for (const target of TARGETS) {
      const spec = specFor(target);
      for (const name of ['service', 'baseline'] as const) {
        log(`${target.title}: warm-up ${name} ${settings.warmup} s`);
        await load(byName[name], spec, settings.warmup);
      }
      for (let round = 1; round <= settings.runs; round++) {
        const order: ServerName[] = round % 2 === 1 ? ['service', 'baseline'] : ['baseline', 'service'];
        for (const name of order) {
          await sleep(1_000);
          const r = await load(byName[name], spec, settings.duration);
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

    // ------------------------------------------------ offer list latency at two sizes
    let lists: ListResult | undefined;
    let listError: string | undefined = process.env.BENCH_LISTS === '0' ? 'skipped (BENCH_LISTS=0)' : undefined;
    if (!listError) {
      await sleep(1_000); // autocannon does not wait for its last in-flight requests; let the baseline answer them
      await stopChild(baseline);
      try {
        lists = await runOfferLists(
          service,
          token,
          db,
          [0, 1].map((i) => ({ networkId: networkIds[i]!, advertiserId: advertiserIds[i]! })),
          serviceEnv.APP_SECRET_KEY || undefined,
        );
      } catch (error) {
        listError = error instanceof Error ? error.message : String(error);
        log(`offer list benchmark failed: ${listError}`);
      }
    }

    log('stopping the servers before the pool benchmark');
    for (const child of children) await stopChild(child);
    for (const child of children) {
      if (child.exitCode !== 0) log(`note: ${child.name} exited with code ${child.exitCode} on SIGTERM`);
    }

    // ------------------------------------------------ creative generation overhead
    const creativeSummaries: CreativeSummary[] = [];
    let creativeError: string | undefined;
    const CREATIVE_WARMUP = 3;
    const workerConcurrency = serviceEnv.WORKER_CONCURRENCY ?? '20 (default)';
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

    // ------------------------------------------------ soak
    let soak: SoakResult | undefined;
    let soakError: string | undefined = SOAK.enabled ? undefined : 'skipped (BENCH_SOAK=0)';
    if (!soakError) {
      try {
        const soakPort = await freePort();
        const soakService = startChild('service-soak', 'scripts/start.ts', { ...serviceEnv, PORT: String(soakPort) }, soakPort, logDir, investigation.serviceNodeArgs);
        children.push(soakService);
        log(`starting the service for the soak (pid ${soakService.pid}, port ${soakPort})…`);
        await waitReady(soakService, superToken, settings.startTimeoutMs);
        soak = await runSoak(soakService, token, networkIds, advertiserIds);
        log(soakLogLine(soak));
        await stopChild(soakService);
        if (soakService.exitCode !== 0) log(`note: service-soak exited with code ${soakService.exitCode} on SIGTERM`);
      } catch (error) {
        soakError = error instanceof Error ? error.message : String(error);
        log(`soak failed: ${soakError}`);
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
    if (lists) {
      for (const l of summarizeLists(lists)) {
        log(
          `offers ${l.page} page: ${fmtRows(OFFER_SIZES[0])} p50 ${fmtMs(l.small.p50)} p99 ${fmtMs(l.small.p99)} ms | ${fmtRows(OFFER_SIZES[1])} p50 ${fmtMs(l.large.p50)} p99 ${fmtMs(l.large.p99)} ms | ` +
            `ratio p50 ${l.p50Ratio.toFixed(2)}× (${l.met ? 'met' : 'MISSED'}), p99 ${l.p99Ratio.toFixed(2)}×` + (l.valid ? '' : ' INVALID (errors/non-2xx)'),
        );
      }
    }
    if (soak) log(soakLogLine(soak));
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
      const others: OtherVerdict[] = [
        ...(lists
          ? summarizeLists(lists).map((l) => ({
              title: `offers list, ${l.page} page: p50 at ${fmtRows(OFFER_SIZES[1])} ÷ at ${fmtRows(OFFER_SIZES[0])} rows`,
              result: `${l.p50Ratio.toFixed(2)}× (≤ ${LIST_RATIO_TARGET}) — ${verdict(l.met && l.valid)}`,
              met: l.met && l.valid,
            }))
          : [{ title: 'offers list latency', result: `not measured: ${listError ?? 'skipped'}`, met: listError?.startsWith('skipped') ?? false }]),
        soak
          ? { title: `RSS over a ${Math.round(SOAK.seconds)} s soak`, result: `${fmtMiB(soak.startKiB)} → ${fmtMiB(soak.endKiB)} MiB, last-half slope ${soak.slopeMiBPerMin.toFixed(2)} MiB/min — ${verdict(soakVerdict(soak).met)}`, met: soakVerdict(soak).met }
          : { title: 'RSS over a soak', result: `not measured: ${soakError ?? 'skipped'}`, met: soakError?.startsWith('skipped') ?? false },
      ];
      writeReport(
        settings.report,
        renderReport(environment, runs, summaries, memory, pool, poolError, poolOtherPct, [...renderListSection(lists, listError), ...renderSoakSection(soak, soakError)], others, [
          ...creativeLines,
          ...fanoutLines,
        ]),
      );
      log(`wrote ${path.relative(process.cwd(), settings.report) || settings.report}`);
    }
    failed =
      !summaries.every((s) => s.valid) ||
      creativeError !== undefined ||
      (fanoutError !== undefined && process.env.BENCH_FANOUT !== '0') ||
      (listError !== undefined && process.env.BENCH_LISTS !== '0') ||
      (lists !== undefined && !summarizeLists(lists).every((l) => l.valid)) ||
      (soakError !== undefined && SOAK.enabled) ||
      (soak !== undefined && soak.failures > 0);
    if (failed) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
