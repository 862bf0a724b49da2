/**
 * Webhook fan-out benchmark (issues 5 and 7): signed deliveries per second to a local receiver,
 * and event → receipt latency at a steady event rate.
 *
 * Real pieces only: the service runs as `npm start` runs it (web + graphile-worker in one process,
 * jobs/worker.ts, LISTEN/NOTIFY), with WEBHOOK_ALLOW_PRIVATE=1 so it may post to 127.0.0.1;
 * subscriptions are created over the API (POST /v1/networks/{n}/webhooks); events are recorded by
 * the product's own `recordEvent` (server/services/events/record-event.ts: the event, its
 * deliveries and their jobs in one transaction), from this process, on the service's database.
 * The receiver is a `node:http` server here that verifies X-Service-Signature (HMAC-SHA256 over
 * the raw bytes, with each subscription's secret) before answering 200.
 *
 * 1. Burst: N events × M subscriptions, recorded by 8 concurrent transactions as fast as they
 *    go; deliveries/s = deliveries ÷ (last receipt − start of the first recording transaction).
 * 2. Steady: events recorded at RATE/s for SECONDS s (one transaction each, on a fixed schedule),
 *    each to one subscription; latency = receipt (request body fully read and verified) − the
 *    moment the recording transaction's COMMIT returned in this process. One clock
 *    (performance.now() of this process) for both ends.
 *
 * Usable from run.ts (`runWebhookFanout` + `renderWebhookSection`), or alone:
 *   npx tsx scripts/bench/webhook-fanout.ts      # fresh database, own service, prints, writes
 *                                                 # its section of docs/PERFORMANCE.md
 *   BENCH_QUICK=1 npx tsx scripts/bench/webhook-fanout.ts   # smoke run, writes nothing
 * Settings: BENCH_FANOUT_EVENTS=500 BENCH_FANOUT_SUBSCRIPTIONS=10 BENCH_FANOUT_RUNS=3
 *           BENCH_FANOUT_RATE=100 BENCH_FANOUT_SECONDS=20 BENCH_FANOUT_STEADY_RUNS=3
 *           BENCH_SERVICE_ENV="WORKER_CONCURRENCY=10" (alone: extra environment for the service)
 *           BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (alone: extra node flags for it)
 *           BENCH_POOL_MAX=10 (alone: the service's database pool, as in run.ts)
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { sql as dsql } from 'drizzle-orm';
import { connect, type DbHandle } from '@/db/client';
import { api, type Api } from '@/scripts/bench/api';
import { fmtInt, log, verdict } from '@/scripts/bench/format';
import { loadAverage, machineBusyMs, postgresCpuMs, procCpuMs } from '@/scripts/bench/proc';
import { measuredAlone, reportAlone, writeSectionAlone } from '@/scripts/bench/report';
import { listenOnLoopback, onFreshDatabase, serviceEnvironment } from '@/scripts/bench/services';
import { numberEnv, parseEnvList } from '@/scripts/bench/settings';
import { finiteSorted, median as medianOf, percentile } from '@/scripts/bench/stats';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { EVENT_DATA_EXAMPLES } from '@/domain/events';
import { recordEvent } from '@/server/services/events/record-event';

export const FANOUT_THROUGHPUT_TARGET = 1_000;
export const FANOUT_P99_TARGET_MS = 100;

export interface FanoutSettings {
  events: number;
  subscriptions: number;
  runs: number;
  rate: number;
  seconds: number;
  steadyRuns: number;
}

export function fanoutSettings(quick: boolean): FanoutSettings {
  return {
    events: Math.round(numberEnv('BENCH_FANOUT_EVENTS', quick ? 100 : 500)),
    subscriptions: Math.round(numberEnv('BENCH_FANOUT_SUBSCRIPTIONS', 10)),
    runs: Math.round(numberEnv('BENCH_FANOUT_RUNS', quick ? 1 : 3)),
    rate: numberEnv('BENCH_FANOUT_RATE', 100),
    seconds: numberEnv('BENCH_FANOUT_SECONDS', quick ? 5 : 20),
    steadyRuns: Math.round(numberEnv('BENCH_FANOUT_STEADY_RUNS', quick ? 1 : 3)),
  };
}

// ---------------------------------------------------------------- receiver

interface Receipt {
  at: number;
  deliveryId: string;
  run: string;
  seq: number;
}

export interface FanoutReceiver {
  url: string;
  secrets: Map<string, string>;
  /** First receipt per delivery id. */
  firstReceipt: Map<string, Receipt>;
  total: number;
  duplicates: number;
  unverified: number;
  close(): Promise<void>;
}

/** A subscriber's endpoint: verifies the signature over the raw bytes (any of the comma-separated values), then answers. */
export async function startFanoutReceiver(): Promise<FanoutReceiver> {
  const state = { total: 0, duplicates: 0, unverified: 0 };
  const secrets = new Map<string, string>();
  const firstReceipt = new Map<string, Receipt>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks);
      const secret = secrets.get(req.url ?? '');
      let verified = false;
      if (secret) {
        const expected = createHmac('sha256', secret).update(raw).digest();
        verified = String(req.headers['x-service-signature'] ?? '')
          .split(',')
          .some((s) => {
            const given = Buffer.from(s.trim(), 'hex');
            return given.length === expected.length && timingSafeEqual(given, expected);
          });
      }
      state.total++;
      if (!verified) {
        state.unverified++;
        res.writeHead(401).end('bad signature');
        return;
      }
      const envelope = JSON.parse(raw.toString('utf8')) as { id: string; data: { campaign_id: string; offer_id: string } };
      if (firstReceipt.has(envelope.id)) state.duplicates++;
      else firstReceipt.set(envelope.id, { at, deliveryId: envelope.id, run: envelope.data.campaign_id, seq: Number(envelope.data.offer_id) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 5_000;
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    secrets,
    firstReceipt,
    get total() {
      return state.total;
    },
    get duplicates() {
      return state.duplicates;
    },
    get unverified() {
      return state.unverified;
    },
    close,
  };
}

// ---------------------------------------------------------------- setup over the API

/** A network with `count` subscriptions to offer.accepted, each at its own receiver path with its secret registered. */
export async function subscribe(a: Api, receiver: FanoutReceiver, label: string, count: number): Promise<string> {
  const network = await api<{ id: string }>(a, 'POST', '/networks', { name: `Bench fan-out ${label}` });
  for (let k = 0; k < count; k++) {
    const hookPath = `/hooks/${label}/${k}`;
    const hook = await api<{ secret: string }>(a, 'POST', `/networks/${network.id}/webhooks`, {
      url: `${receiver.url}${hookPath}`,
      events: ['offer.accepted'],
    });
    receiver.secrets.set(hookPath, hook.secret);
  }
  return network.id;
}

// ---------------------------------------------------------------- CPU accounting (Linux /proc)

/** Backends connected to the benchmark's database (the service's pools, the worker's, the recorder's). */
async function benchBackends(db: DbHandle): Promise<number[]> {
  const rows = await db.sql<Array<{ pid: number }>>`select pid from pg_stat_activity where datname = current_database()`;
  return rows.map((r) => r.pid);
}

const sumCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + (procCpuMs(pid) || 0), 0);

interface CpuSnapshot {
  at: number;
  service: number;
  pg: number;
  /** only the backends of the benchmark's database (other databases on a shared server excluded) */
  pgOwn: number;
  busy: number;
  self: NodeJS.CpuUsage;
}

const cpuSnapshot = (servicePid: number, backends: number[]): CpuSnapshot => ({
  at: performance.now(),
  service: procCpuMs(servicePid),
  pg: postgresCpuMs(),
  pgOwn: sumCpu(backends),
  busy: machineBusyMs(),
  self: process.cpuUsage(),
});

interface CpuUse {
  /** ms of CPU per delivery */
  servicePerDelivery: number;
  /** every postgres process on the machine */
  pgPerDelivery: number;
  /** the benchmark database's backends only */
  pgOwnPerDelivery: number;
  /** this benchmark process (recording + receiver), % of one core */
  benchPct: number;
  /** everything else on the machine, % of one core */
  otherPct: number;
}

function cpuUse(a: CpuSnapshot, b: CpuSnapshot, deliveries: number): CpuUse {
  const service = b.service - a.service;
  const pg = b.pg - a.pg;
  const self = (b.self.user - a.self.user + b.self.system - a.self.system) / 1000;
  const wall = b.at - a.at;
  return {
    servicePerDelivery: service / deliveries,
    pgPerDelivery: pg / deliveries,
    pgOwnPerDelivery: (b.pgOwn - a.pgOwn) / deliveries,
    benchPct: (self / wall) * 100,
    otherPct: Math.max(0, ((b.busy - a.busy - service - pg - self) / wall) * 100),
  };
}

// ---------------------------------------------------------------- runs

export interface BurstRun {
  run: number;
  deliveries: number;
  received: number;
  recordMs: number;
  totalMs: number;
  perSecond: number;
  /** deliveries/s received while the events were still being recorded */
  whileRecording: number;
  /** deliveries/s from the end of recording to the last receipt (the worker alone) */
  drain: number;
  cpu: CpuUse;
}

export interface SteadyRun {
  run: number;
  events: number;
  received: number;
  achievedRate: number;
  latencies: number[];
  p50: number;
  p90: number;
  p99: number;
  max: number;
  cpu: CpuUse;
}

export interface FanoutResult {
  settings: FanoutSettings;
  workerConcurrency: string;
  burst: BurstRun[];
  steady: SteadyRun[];
  duplicates: number;
  unverified: number;
  /** From the database after the runs: deliveries of the benchmark's subscriptions by status, and attempts. */
  dbCheck: { deliveries: number; succeeded: number; attempts: number };
  loadBefore: string;
}

/** Median of the finite values (a run without a reading does not count). */
const median = (values: number[]) => medianOf(finiteSorted(values));

export async function record(db: DbHandle, networkId: string, run: string, seq: number): Promise<void> {
  // The run and sequence number ride in the (schema-valid) ids of offer.accepted's data.
  await db.db.transaction((tx) =>
    recordEvent({
      tx,
      networkId,
      type: 'offer.accepted',
      data: { ...EVENT_DATA_EXAMPLES['offer.accepted'], campaign_id: run, offer_id: String(seq) },
    }),
  );
}

function receiptsOf(receiver: FanoutReceiver, run: string): Receipt[] {
  const out: Receipt[] = [];
  for (const r of receiver.firstReceipt.values()) if (r.run === run) out.push(r);
  return out;
}

export async function waitFor(receiver: FanoutReceiver, run: string, expected: number, timeoutMs: number): Promise<Receipt[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const got = receiptsOf(receiver, run);
    if (got.length >= expected || performance.now() > deadline) return got;
    await sleep(20);
  }
}

/** `runs` measured runs numbered from 1, each a second after the last (its tail settles first), logged as it ends. */
async function measuredRuns<T>(runs: number, measure: (run: number) => Promise<T>, log: (result: { run: number } & T) => void) {
  const results: Array<{ run: number } & T> = [];
  for (let run = 1; run <= runs; run++) {
    await sleep(1_000);
    const result = { run, ...(await measure(run)) };
    results.push(result);
    log(result);
  }
  return results;
}

async function burst(
  db: DbHandle,
  receiver: FanoutReceiver,
  networkId: string,
  label: string,
  events: number,
  subscriptions: number,
  servicePid: number,
) {
  const expected = events * subscriptions;
  const backends = await benchBackends(db);
  const before = cpuSnapshot(servicePid, backends);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < events) await record(db, networkId, label, next++);
    }),
  );
  const recordMs = performance.now() - t0;
  const atRecordEnd = receiptsOf(receiver, label).length;
  const got = await waitFor(receiver, label, expected, 120_000);
  const after = cpuSnapshot(servicePid, backends);
  const last = Math.max(...got.map((r) => r.at));
  const totalMs = last - t0;
  return {
    deliveries: expected,
    received: got.length,
    recordMs,
    totalMs,
    perSecond: (got.length / totalMs) * 1000,
    whileRecording: (atRecordEnd / recordMs) * 1000,
    drain: got.length > atRecordEnd ? ((got.length - atRecordEnd) / (last - t0 - recordMs)) * 1000 : Number.NaN,
    cpu: cpuUse(before, after, got.length),
  };
}

async function steady(db: DbHandle, receiver: FanoutReceiver, networkId: string, label: string, rate: number, seconds: number, servicePid: number) {
  const events = Math.round(rate * seconds);
  const committedAt = new Array<number>(events).fill(Number.NaN);
  const backends = await benchBackends(db);
  const before = cpuSnapshot(servicePid, backends);
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < events; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(record(db, networkId, label, i).then(() => void (committedAt[i] = performance.now())));
  }
  await Promise.all(pending);
  const achievedRate = (events / (performance.now() - t0)) * 1000;
  const got = await waitFor(receiver, label, events, 60_000);
  const after = cpuSnapshot(servicePid, backends);
  const latencies = got.map((r) => r.at - committedAt[r.seq]!).sort((x, y) => x - y);
  return {
    events,
    received: got.length,
    achievedRate,
    latencies,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    cpu: cpuUse(before, after, got.length),
  };
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export function burstLogLine(r: BurstRun): string {
  return (
    `fan-out burst ${r.run}: ${fmtInt(r.received)}/${fmtInt(r.deliveries)} deliveries in ${fmtInt(r.totalMs)} ms (recording ${fmtInt(r.recordMs)} ms) → ` +
    `${fmtInt(r.perSecond)}/s (${fmtInt(r.whileRecording)}/s while recording, ${fmtInt(r.drain)}/s after); service ${fmt(r.cpu.servicePerDelivery, 2)} ms CPU/delivery, Postgres ${fmt(r.cpu.pgPerDelivery, 2)} (this database's backends ${fmt(r.cpu.pgOwnPerDelivery, 2)}), bench ${fmtInt(r.cpu.benchPct)} %, other ${fmtInt(r.cpu.otherPct)} %`
  );
}

export function steadyLogLine(r: SteadyRun): string {
  return (
    `fan-out steady ${r.run}: ${fmtInt(r.received)}/${fmtInt(r.events)} at ${fmt(r.achievedRate)} events/s, latency p50 ${fmt(r.p50)} / p90 ${fmt(r.p90)} / p99 ${fmt(r.p99)} / max ${fmt(r.max)} ms; ` +
    `service ${fmt(r.cpu.servicePerDelivery, 2)} ms CPU/delivery, Postgres ${fmt(r.cpu.pgPerDelivery, 2)} (this database's backends ${fmt(r.cpu.pgOwnPerDelivery, 2)}), other ${fmtInt(r.cpu.otherPct)} %`
  );
}

/**
 * Run the benchmark against a started service (WEBHOOK_ALLOW_PRIVATE=1) whose database is `dbUrl`.
 * `servicePid` is the process that runs the worker (for CPU accounting).
 */
export async function runWebhookFanout(
  a: Api,
  dbUrl: string,
  servicePid: number,
  settings: FanoutSettings,
  opts: { workerConcurrency: string; log: (msg: string) => void },
): Promise<FanoutResult> {
  const loadBefore = loadAverage();
  const receiver = await startFanoutReceiver();
  const db = connect(dbUrl, { max: 10 });
  try {
    const tag = randomBytes(3).toString('hex');
    const burstNetwork = await subscribe(a, receiver, `burst-${tag}`, settings.subscriptions);
    const steadyNetwork = await subscribe(a, receiver, `steady-${tag}`, 1);
    opts.log(`fan-out: ${settings.subscriptions} subscriptions for bursts, 1 for the steady rate; receiver ${receiver.url}`);

    // Warm-up (not counted): connections, prepared plans, JIT.
    await burst(db, receiver, burstNetwork, `warm-${tag}`, Math.max(10, Math.round(settings.events / 5)), settings.subscriptions, servicePid);
    await steady(db, receiver, steadyNetwork, `warmsteady-${tag}`, settings.rate, 2, servicePid);

    const bursts: BurstRun[] = await measuredRuns(
      settings.runs,
      (run) => burst(db, receiver, burstNetwork, `burst${run}-${tag}`, settings.events, settings.subscriptions, servicePid),
      (r) => opts.log(burstLogLine(r)),
    );
    const steadies: SteadyRun[] = await measuredRuns(
      settings.steadyRuns,
      (run) => steady(db, receiver, steadyNetwork, `steady${run}-${tag}`, settings.rate, settings.seconds, servicePid),
      (r) => opts.log(steadyLogLine(r)),
    );

    // Every delivery settled and every attempt recorded (once the last attempt's transaction commits).
    await sleep(500);
    const [check] = await db.db.execute<{ deliveries: string; succeeded: string; attempts: string }>(dsql`
      select count(*) as deliveries,
             count(*) filter (where d.status = 'succeeded') as succeeded,
             (select count(*) from webhook_attempts a join webhook_deliveries d2 on d2.id = a.delivery_id
               where d2.network_id in (${burstNetwork}, ${steadyNetwork})) as attempts
        from webhook_deliveries d where d.network_id in (${burstNetwork}, ${steadyNetwork})`);
    return {
      settings,
      workerConcurrency: opts.workerConcurrency,
      burst: bursts,
      steady: steadies,
      duplicates: receiver.duplicates,
      unverified: receiver.unverified,
      dbCheck: { deliveries: Number(check!.deliveries), succeeded: Number(check!.succeeded), attempts: Number(check!.attempts) },
      loadBefore,
    };
  } finally {
    await db.close();
    await receiver.close();
  }
}

// ---------------------------------------------------------------- report

export const FANOUT_SECTION_TITLE = '## Webhook fan-out (scripts/bench/webhook-fanout.ts)';

export function fanoutVerdict(r: FanoutResult): { throughput: number; p99: number; throughputMet: boolean; p99Met: boolean; complete: boolean } {
  const throughput = median(r.burst.map((b) => b.perSecond));
  const p99 = median(r.steady.map((s) => s.p99));
  const complete =
    r.burst.every((b) => b.received === b.deliveries) &&
    r.steady.every((s) => s.received === s.events) &&
    r.unverified === 0 &&
    r.dbCheck.succeeded === r.dbCheck.deliveries;
  return {
    throughput,
    p99,
    throughputMet: complete && throughput >= FANOUT_THROUGHPUT_TARGET,
    p99Met: complete && p99 < FANOUT_P99_TARGET_MS,
    complete,
  };
}

export function renderWebhookSection(
  r: FanoutResult | undefined,
  info: { error?: string; command: string; date: string; machine: string },
): string[] {
  const lines: string[] = [FANOUT_SECTION_TITLE, ''];
  if (!r || info.error) {
    lines.push(`Not measured: ${info.error ?? 'skipped'}.`, '');
    return lines;
  }
  const v = fanoutVerdict(r);
  const spread = (values: number[], f: (n: number) => string) => `${f(Math.min(...values))}–${f(Math.max(...values))}`;
  const twoPlaces = (n: number) => fmt(n, 2);
  /** A table row: the runs' median, then their range. */
  const statRow = (label: string, values: number[], f: (n: number) => string) => `| ${label} | ${f(median(values))} | ${spread(values, f)} |`;
  const s = r.settings;
  lines.push(
    `Measured ${info.date} with \`${info.command}\` on ${info.machine}; load average before: ${r.loadBefore}.`,
    '',
    ...(() => {
      const other = median([...r.burst, ...r.steady].map((x) => x.cpu.otherPct));
      return other > 15
        ? [
            `> **Warning:** the machine was busy with other work during these runs (unrelated CPU use: median ${fmtInt(other)} % of one core). Load generator, service and Postgres had less than the machine's cores; rerun on a quiet machine for reliable numbers.`,
            '',
          ]
        : [];
    })(),
    `Targets: ≥ ${fmtInt(FANOUT_THROUGHPUT_TARGET)} signed deliveries/s in a burst — ${verdict(v.throughputMet)} (median ${fmtInt(v.throughput)}/s); ` +
      `p99 event → receipt < ${FANOUT_P99_TARGET_MS} ms at ${s.rate} events/s — ${verdict(v.p99Met)} (median p99 ${fmt(v.p99)} ms).`,
    '',
    `| burst: ${fmtInt(s.events)} events × ${s.subscriptions} subscriptions | median | min–max over ${r.burst.length} runs |`,
    '|---|---|---|',
    `| deliveries/s (first recording → last receipt) | **${fmtInt(v.throughput)}** | ${spread(
      r.burst.map((b) => b.perSecond),
      fmtInt,
    )} |`,
    ...(
      [
        ['deliveries/s received while the events were being recorded', (b) => b.whileRecording, fmtInt],
        ['deliveries/s from the end of recording to the last receipt', (b) => b.drain, fmtInt],
        ['wall time ms', (b) => b.totalMs, fmtInt],
        ['of which recording the events ms', (b) => b.recordMs, fmtInt],
        ['service CPU ms per delivery', (b) => b.cpu.servicePerDelivery, twoPlaces],
        ['Postgres CPU ms per delivery, every postgres process on the machine', (b) => b.cpu.pgPerDelivery, twoPlaces],
        ["Postgres CPU ms per delivery, this database's backends only", (b) => b.cpu.pgOwnPerDelivery, twoPlaces],
        ['unrelated CPU, % of one core', (b) => b.cpu.otherPct, fmtInt],
      ] satisfies Array<[string, (b: BurstRun) => number, (n: number) => string]>
    ).map(([label, pick, f]) => statRow(label, r.burst.map(pick), f)),
    '',
    `| steady: ${s.rate} events/s × ${s.seconds} s, 1 subscription | median | min–max over ${r.steady.length} runs |`,
    '|---|---|---|',
    ...(['p50', 'p90', 'p99', 'max'] as const).map(
      (k) =>
        `| event → receipt ${k} ms | ${k === 'p99' ? '**' : ''}${fmt(median(r.steady.map((x) => x[k])))}${k === 'p99' ? '**' : ''} | ${spread(
          r.steady.map((x) => x[k]),
          (n) => fmt(n),
        )} |`,
    ),
    statRow(
      'achieved event rate /s',
      r.steady.map((x) => x.achievedRate),
      (n) => fmt(n),
    ),
    statRow(
      'unrelated CPU, % of one core',
      r.steady.map((x) => x.cpu.otherPct),
      fmtInt,
    ),
    '',
    `Completeness: every delivery arrived (${v.complete ? 'yes' : '**NO**'}), signatures that failed verification ${r.unverified}, duplicates seen ${r.duplicates}; ` +
      `in the database afterwards ${fmtInt(r.dbCheck.succeeded)} of ${fmtInt(r.dbCheck.deliveries)} deliveries succeeded with ${fmtInt(r.dbCheck.attempts)} attempts recorded (warm-up included).`,
    '',
    `- **Setup**: the service started as \`npm start\` starts it (web + graphile-worker in one process, \`NODE_ENV=production\`, default logging to a file, worker concurrency ${r.workerConcurrency}) with \`WEBHOOK_ALLOW_PRIVATE=1\` on a fresh database; subscriptions created with \`POST /v1/networks/{n}/webhooks\`; events recorded from the benchmark process with the product's \`recordEvent\` (event + one delivery and one job per subscription in the event's transaction), 8 transactions at a time in a burst, on a fixed schedule in the steady runs. The receiver (\`node:http\`, same process as the recorder) verifies the HMAC over the raw bytes with each subscription's secret before answering 200. A warm-up burst and 2 s of steady load come first and are not counted.`,
    `- **Latency** = the receiver has read and verified the whole request − the recording transaction's COMMIT returned to the benchmark process (one clock). It includes the worker's wake-up (LISTEN/NOTIFY), taking the job, the delivery read, the SSRF check, signing, the HTTP exchange, and excludes the attempt's own bookkeeping transaction and job completion, which follow the receipt.`,
    `- **Work per delivery**: in the event's transaction (\`server/services/webhooks/fan-out.ts\`) one INSERT of the delivery and one \`graphile_worker.add_job\` call, both unprepared Drizzle queries (plus, per event, the event INSERT and the subscription SELECT); in the worker, graphile-worker's get-job and complete-job queries around \`attemptDelivery\`, which runs two prepared statements (delivery + subscription in one read; attempt INSERT + delivery UPDATE + the next attempt's job, if any, in one statement), decrypts the secret, signs, and POSTs over a keep-alive connection pinned to the vetted addresses. Load generator, receiver, service and Postgres share the machine's cores, so deliveries/s is about cores ÷ (CPU per delivery of all of them).`,
    `- **CPU per delivery** is user + system time of the service process and of every \`postgres\` process during the run (recording and delivering), divided by the deliveries; "unrelated" is the rest of the machine (\`/proc/stat\`) minus those and the benchmark process.`,
    '',
  );
  return lines;
}

// ---------------------------------------------------------------- standalone

async function standalone(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const settings = fanoutSettings(quick);
  const pgUrl = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const report = reportAlone(quick);
  const extraEnv = parseEnvList(process.env.BENCH_SERVICE_ENV, 'BENCH_SERVICE_ENV');
  await onFreshDatabase(pgUrl, async ({ dbUrl, processes, where }) => {
    const token = generateApiKeyToken('test');
    const env = serviceEnvironment(dbUrl, token, { WEBHOOK_ALLOW_PRIVATE: '1', ...extraEnv });
    const service = await processes.start('service', 'scripts/start.ts', env, {
      what: 'the service',
      note: where,
      readyToken: token,
      timeoutMs: 900_000,
      nodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    });
    const result = await runWebhookFanout({ baseUrl: service.url, token }, dbUrl, service.pid, settings, {
      workerConcurrency: env.WORKER_CONCURRENCY ?? '20 (default)',
      log,
    });
    const v = fanoutVerdict(result);
    log(
      `burst median ${fmtInt(v.throughput)}/s (${v.throughputMet ? 'met' : 'MISSED'}), steady median p99 ${fmt(v.p99)} ms (${v.p99Met ? 'met' : 'MISSED'}); duplicates ${result.duplicates}, unverified ${result.unverified}, db ${JSON.stringify(result.dbCheck)}`,
    );
    if (report)
      writeSectionAlone(report, renderWebhookSection(result, measuredAlone('npx tsx scripts/bench/webhook-fanout.ts')), FANOUT_SECTION_TITLE);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  standalone().catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
