/**
 * Every `BENCH_*` variable of `npm run bench`, read once (their meaning: the header of run.ts).
 * The webhook fan-out's own variables are read by `fanoutSettings` (webhook-fanout.ts), which
 * also runs alone.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A positive number from the environment, or `fallback` when unset or empty. */
export function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return value;
}

/** `K=V K2=V2` (space-separated) → an object; `name` is the variable, for the error message. */
export function parseEnvList(raw: string | undefined, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`${name}: expected K=V, got ${JSON.stringify(pair)}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** `KEY=value … npm run bench`: every BENCH_* variable set, for the report and its log. */
export function benchCommand(script = 'npm run bench'): string {
  const vars = Object.keys(process.env)
    .filter((k) => k.startsWith('BENCH_'))
    .sort()
    .map((k) => `${k}=${process.env[k]}`);
  return [...vars, script].join(' ');
}

export const quick = process.env.BENCH_QUICK === '1';

/** Settings for investigations; any of them set → no report unless BENCH_REPORT names a file. */
export const investigation = {
  targets: (process.env.BENCH_TARGETS ?? '').split(',').filter(Boolean),
  serviceEnv: parseEnvList(process.env.BENCH_SERVICE_ENV, 'BENCH_SERVICE_ENV'),
  serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  baselineNodeArgs: (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  baselinePrepare: process.env.BENCH_BASELINE_PREPARE !== '0',
  /** The benchmark database's synchronous_commit, for both servers (`off`: commits do not wait for the disk). */
  synchronousCommit: synchronousCommitEnv(process.env.BENCH_SYNCHRONOUS_COMMIT),
};
const investigating =
  investigation.targets.length > 0 ||
  Object.keys(investigation.serviceEnv).length > 0 ||
  investigation.serviceNodeArgs.length > 0 ||
  investigation.baselineNodeArgs.length > 0 ||
  !investigation.baselinePrepare ||
  investigation.synchronousCommit !== undefined ||
  process.env.BENCH_POOL_MAX !== undefined;

export const settings = {
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
  fanout: process.env.BENCH_FANOUT !== '0',
  fairness: process.env.BENCH_FAIRNESS !== '0',
  lists: process.env.BENCH_LISTS !== '0',
};

/** The service and the baseline run with the same pool size (the service's default, 10). */
export const POOL_MAX = Math.round(numberEnv('BENCH_POOL_MAX', 10));
/** Generous per-key limits: the limiter still runs on every request but never refuses one. */
export const RATE_LIMIT = '1000000';

/** Offer list latency: the two list sizes, and each run's length and connections. */
export const lists = {
  sizes: [
    Math.round(numberEnv('BENCH_OFFERS_SMALL', quick ? 1_000 : 10_000)),
    Math.round(numberEnv('BENCH_OFFERS_LARGE', quick ? 100_000 : 1_000_000)),
  ] as const,
  seconds: numberEnv('BENCH_LIST_SECONDS', quick ? 2 : 5),
  connections: Math.round(numberEnv('BENCH_LIST_CONNECTIONS', 1)),
};

/** The noisy neighbour scenario (scenarios/noisy-neighbour.ts): what network A does, and how B is measured. */
function noisySynth(value: string): Array<'local' | 'http'> {
  const list = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!list.length || list.some((v) => v !== 'local' && v !== 'http'))
    throw new Error(`BENCH_NOISY_SYNTH: "local", "http" or both, comma separated; got ${JSON.stringify(value)}`);
  return list as Array<'local' | 'http'>;
}

const NOISY_ATTACKS = ['previews', 'batches', 'minted-keys', 'hanging'] as const;
function noisyAttacks(value: string): Array<(typeof NOISY_ATTACKS)[number]> {
  const list = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = list.filter((v) => !(NOISY_ATTACKS as readonly string[]).includes(v));
  if (!list.length || unknown.length)
    throw new Error(`BENCH_NOISY_ATTACKS: some of ${NOISY_ATTACKS.join(', ')}, comma separated; got ${JSON.stringify(value)}`);
  return list as Array<(typeof NOISY_ATTACKS)[number]>;
}

export const noisy = {
  enabled: process.env.BENCH_NOISY !== '0',
  seconds: numberEnv('BENCH_NOISY_SECONDS', quick ? 4 : 10),
  meRate: numberEnv('BENCH_NOISY_ME_RATE', 100),
  rounds: Math.max(1, Math.round(numberEnv('BENCH_NOISY_ROUNDS', quick ? 1 : 3))),
  previews: Math.round(numberEnv('BENCH_NOISY_PREVIEWS', 150)),
  batches: Math.round(numberEnv('BENCH_NOISY_BATCHES', 10)),
  batchCalls: Math.round(numberEnv('BENCH_NOISY_BATCH_CALLS', 2_000)),
  keys: Math.round(numberEnv('BENCH_NOISY_KEYS', 20)),
  hooks: Math.round(numberEnv('BENCH_NOISY_HOOKS', 40)),
  hookEvents: Math.round(numberEnv('BENCH_NOISY_HOOK_EVENTS', 5)),
  // The attacker's CPU priority (nice, 0–19): 19 stands for a client on another machine, whose CPU
  // is not the service's; 0 lets it take its share of this machine's cores from the service.
  attackerNice: Math.round(numberEnv('BENCH_NOISY_ATTACKER_NICE', 19)),
  // The voice providers to run it with, each on a service of its own: `local` (the default engine,
  // in the web process's CPU) and `http` (a vendor: the fake one, BENCH_VENDOR_DELAY_MS per call).
  synth: noisySynth(process.env.BENCH_NOISY_SYNTH ?? 'local,http'),
  // Which of A's attacks to run (all by default), and a file to write each of B's `/v1/me` samples
  // to (JSON lines: phase, round, side, ms since the side began, latency), to see when slow ones come.
  attacks: noisyAttacks(process.env.BENCH_NOISY_ATTACKS ?? NOISY_ATTACKS.join(',')),
  trace: process.env.BENCH_NOISY_TRACE || undefined,
};
export type NoisySettings = typeof noisy;

/** The soak: a steady mixed load at `rate` req/s for `seconds`, RSS read every `sampleSeconds`. */
export const soak = {
  enabled: process.env.BENCH_SOAK !== '0',
  seconds: numberEnv('BENCH_SOAK_SECONDS', quick ? 20 : 600),
  warmup: numberEnv('BENCH_SOAK_WARMUP', quick ? 5 : 60),
  rate: Math.round(numberEnv('BENCH_SOAK_RATE', 200)),
  connections: Math.round(numberEnv('BENCH_SOAK_CONNECTIONS', 8)),
  sampleSeconds: numberEnv('BENCH_SOAK_SAMPLE_SECONDS', quick ? 2 : 10),
};

/**
 * Tracking hits beside a bare baseline (scenarios/tracking.ts): each run's length, the closed-loop
 * connections of the hits' load, the API's `/v1/me` rate meanwhile, and the accepted offers hit.
 */
export const tracking = {
  enabled: process.env.BENCH_TRACKING !== '0',
  seconds: numberEnv('BENCH_TRACKING_SECONDS', quick ? 3 : 10),
  connections: Math.round(numberEnv('BENCH_TRACKING_CONNECTIONS', 100)),
  meRate: numberEnv('BENCH_TRACKING_ME_RATE', 50),
  networks: Math.round(numberEnv('BENCH_TRACKING_NETWORKS', 2)),
  offersPerNetwork: Math.round(numberEnv('BENCH_TRACKING_OFFERS', 2)),
};
export type TrackingSettings = typeof tracking;

/**
 * The delivery report as data grows (scenarios/delivery-report-scale.ts): the hits stored at each of
 * the two sizes, and each timing run's length (BENCH_RUNS runs per size, one connection).
 */
export const deliveryReports = {
  enabled: process.env.BENCH_DELIVERY_REPORTS !== '0',
  sizes: [
    Math.round(numberEnv('BENCH_TRACKING_HITS_SMALL', 10_000)),
    Math.round(numberEnv('BENCH_TRACKING_HITS_LARGE', quick ? 1_000_000 : 10_000_000)),
  ] as const,
  seconds: numberEnv('BENCH_DELIVERY_SECONDS', quick ? 2 : 5),
};
export type DeliveryReportSettings = typeof deliveryReports;

function synchronousCommitEnv(raw: string | undefined): 'on' | 'off' | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'on' || raw === 'off') return raw;
  throw new Error(`BENCH_SYNCHRONOUS_COMMIT must be on or off, got ${JSON.stringify(raw)}`);
}
