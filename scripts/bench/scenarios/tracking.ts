/**
 * Tracking hits beside a bare baseline, in one run (issue 39, "Performance"): the service's
 * `GET /t/{token}` — real accepted offers' tracking URLs, browser and podcast-app user agents, each
 * hit from its own source address — against scripts/bench/tracking-baseline.ts, a bare `node:http`
 * + postgres.js server doing the same durable write (group commit: one transaction per batch, the
 * multi-row hits INSERT and the daily rollup upsert, answered after COMMIT), alternating which goes
 * first, BENCH_TRACKING_CONNECTIONS connections (closed loop: many ad servers calling at once).
 * Meanwhile a separate open-loop client (a child process, so autocannon's event loop does not time
 * it) reads the API's `GET /v1/me` at BENCH_TRACKING_ME_RATE per second; its idle value is measured
 * just before each of the service's runs, with nothing else running.
 *
 * Source addresses: the service believes X-Forwarded-For only from a proxy named in TRUSTED_PROXIES
 * (server/http/client-address.ts), so it runs with TRUSTED_PROXIES=loopback — as behind a load
 * balancer on the same host — and every hit carries an `X-Forwarded-For` of its own: an IPv4 address
 * out of 2^20, or (one in eight) an IPv6 address in one of 2^16 /64s. With 5 user agents and 50
 * episodes almost every hit is a new impression (the dedupe lookup finds nothing, the whole write
 * happens); no source comes near TRACKING_SOURCE_DAILY_LIMIT.
 *
 * Targets: service throughput ≥ 0.7 × the baseline's, p99 ≤ 1.5 × the baseline's, ≥ 5,000 hits/s,
 * and `/v1/me` p99 while the service takes hits ≤ 2 × its idle p99. After the runs, the hits each
 * server acknowledged (2xx) must all be stored (rollups and raw rows).
 *
 * Usable from run.ts (`runTracking` + `trackingLogLine` + `renderTrackingSection` + `trackingVerdicts`), or alone:
 *   node --import tsx scripts/bench/scenarios/tracking.ts                 # fresh database, own servers; writes its section of docs/PERFORMANCE.md
 *   BENCH_QUICK=1 node --import tsx scripts/bench/scenarios/tracking.ts   # short, writes nothing
 *   BENCH_REPORT=- node --import tsx scripts/bench/scenarios/tracking.ts  # full length, writes nothing
 * Settings: settings.ts `tracking` (BENCH_TRACKING_*), BENCH_RUNS, BENCH_WARMUP, BENCH_PG_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { api, type Api } from '@/scripts/bench/api';
import { fmtInt, fmtMs, log, verdict } from '@/scripts/bench/format';
import { load, type AutocannonRequest, type LoadResult } from '@/scripts/bench/load';
import { loadAverage } from '@/scripts/bench/proc';
import { measuredAlone, reportAlone, writeSectionAlone, type OtherVerdict } from '@/scripts/bench/report';
import { onFreshDatabase, serviceEnvironment, type Child, type Processes } from '@/scripts/bench/services';
import { investigation, settings, tracking, type TrackingSettings } from '@/scripts/bench/settings';
import { median, percentile } from '@/scripts/bench/stats';
import { generateApiKeyToken } from '@/server/auth/tokens';

export const TRACKING_SECTION_TITLE = '## Tracking hits beside a bare baseline (scripts/bench/scenarios/tracking.ts)';
export const TRACKING_TARGETS = { throughputRatio: 0.7, p99Ratio: 1.5, hitsPerSecond: 5_000, meP99Ratio: 2 };

/** The service's settings for this scenario: X-Forwarded-For believed from loopback (the benchmark is the proxy). */
export const TRACKING_SERVICE_ENV = { TRUSTED_PROXIES: 'loopback' };

const USER_AGENTS = [
  'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)',
  'Spotify/8.9.30 iOS/17.4 (iPhone15,2)',
  'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
];
const EPISODES = 50;

type ServerName = 'service' | 'baseline';

interface MeSample {
  n: number;
  failed: number;
  p50: number;
  p99: number;
}

export interface TrackingRun extends LoadResult {
  server: ServerName;
  round: number;
  /** The service's runs: `/v1/me` meanwhile, and alone just before. */
  me?: MeSample;
  meIdle?: MeSample;
}

export interface TrackingResult {
  settings: TrackingSettings;
  runs: TrackingRun[];
  offers: number;
  networks: number;
  /** After the runs: hits each server answered 2xx (warm-ups included), and what its tables hold. */
  stored: Record<ServerName, { acknowledged: number; rollupHits: number; rows: number }>;
  loadBefore: string;
}

// ---------------------------------------------------------------- the /v1/me prober (child process)

interface ProbeSpec {
  url: string;
  token: string;
  rate: number;
}

/** In the child: on each `{ seconds }` message, GET /v1/me at `rate`/s (open loop) for that long, and send back the latencies. */
function probe(spec: ProbeSpec): void {
  process.on('message', (message: { seconds: number }) => {
    void (async () => {
      const latencies: number[] = [];
      let failed = 0;
      const pending: Array<Promise<void>> = [];
      const t0 = performance.now();
      const every = 1000 / spec.rate;
      for (let i = 0; ; i++) {
        const at = t0 + i * every;
        if (at - t0 >= message.seconds * 1000) break;
        const wait = at - performance.now();
        if (wait > 0) await sleep(wait);
        pending.push(
          (async () => {
            const start = performance.now();
            try {
              const res = await fetch(spec.url, { headers: { authorization: `Bearer ${spec.token}` } });
              await res.arrayBuffer();
              if (res.status === 200) latencies.push(performance.now() - start);
              else failed++;
            } catch {
              failed++;
            }
          })(),
        );
      }
      await Promise.all(pending);
      process.send!({ latencies, failed });
    })();
  });
  process.send!('ready');
}

interface Prober {
  measure(seconds: number): Promise<MeSample>;
  stop(): void;
}

async function startProber(spec: ProbeSpec): Promise<Prober> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, TRACKING_ME_PROBE: JSON.stringify(spec) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the /v1/me prober exited (${code}) before it was ready`)));
  });
  return {
    measure: (seconds) =>
      new Promise((resolve) => {
        child.once('message', (m: { latencies: number[]; failed: number }) => {
          const sorted = m.latencies.sort((a, b) => a - b);
          resolve({ n: sorted.length, failed: m.failed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) });
        });
        child.send({ seconds });
      }),
    stop: () => void child.kill('SIGTERM'),
  };
}

// ---------------------------------------------------------------- the scenario

/** `networks` networks (super_user key), in each `perNetwork` offers made and accepted over /v1; their tracking URLs' paths. */
async function acceptedOffers(a: Api, networks: number, perNetwork: number): Promise<Array<{ networkId: string; offerId: string; path: string }>> {
  const offers: Array<{ networkId: string; offerId: string; path: string }> = [];
  for (let i = 0; i < networks; i++) {
    const network = await api<{ id: string }>(a, 'POST', '/networks', { name: `Bench tracking ${i + 1}` });
    const n = network.id;
    const advertiser = await api<{ id: string }>(a, 'POST', `/networks/${n}/advertisers`, { name: 'Acme' });
    const campaign = await api<{ id: string }>(a, 'POST', `/networks/${n}/campaigns`, {
      name: 'Tracked',
      advertiser_id: advertiser.id,
      script: 'Sleep better with Acme.',
      status: 'active',
    });
    for (let j = 0; j < perNetwork; j++) {
      const podcast = await api<{ id: string }>(a, 'POST', `/networks/${n}/podcasts`, { name: `Pod ${j + 1}`, host_name: 'Sam' });
      await api(a, 'POST', `/networks/${n}/podcasts/${podcast.id}/opt-in`);
      const offer = await api<{ id: string }>(a, 'POST', `/networks/${n}/offers`, { campaign_id: campaign.id, podcast_id: podcast.id });
      const accepted = await api<{ tracking_url: string }>(a, 'POST', `/networks/${n}/offers/${offer.id}/accept`);
      offers.push({ networkId: n, offerId: offer.id, path: new URL(accepted.tracking_url.replace(/[{}]/g, '')).pathname });
    }
  }
  return offers;
}

/** Each request: an offer in turn, an episode, a user agent and a source address of its own (X-Forwarded-For). */
function hitRequests(paths: string[]): AutocannonRequest[] {
  let n = 0;
  const random = (k: number) => Math.floor(Math.random() * k);
  const address = () => {
    if (random(8) === 0) return `2001:db8:${random(256).toString(16)}:${random(256).toString(16)}:${(1 + random(65535)).toString(16)}::1`;
    const x = random(1 << 20);
    return `10.${x >> 12}.${(x >> 4) & 255}.${((x & 15) << 4) + 1 + random(14)}`;
  };
  return [
    {
      method: 'GET',
      path: paths[0]!,
      setupRequest: (req) => {
        const i = n++;
        return {
          ...req,
          method: 'GET',
          path: `${paths[i % paths.length]}?episode=ep-${random(EPISODES)}&ts=${Math.floor(Date.now() / 1000)}&rid=r${i}`,
          headers: { 'user-agent': USER_AGENTS[random(USER_AGENTS.length)]!, 'x-forwarded-for': address() },
        };
      },
    },
  ];
}

/** What a server's tables hold of the given offers: rollups' hits and raw rows. */
async function storedHits(db: postgres.Sql, server: ServerName, offerIds: string[]): Promise<{ rollupHits: number; rows: number }> {
  const [hits, daily] = server === 'service' ? ['tracking_hits', 'tracking_daily'] : ['baseline_tracking_hits', 'baseline_tracking_daily'];
  const [r] = await db.unsafe<Array<{ rollup: string; rows: string }>>(
    `select (select coalesce(sum(hits), 0) from ${daily} where offer_id = any($1)) as rollup,
            (select count(*) from ${hits} where offer_id = any($1)) as rows`,
    [offerIds],
  );
  return { rollupHits: Number(r!.rollup), rows: Number(r!.rows) };
}

export async function runTracking(
  servers: Record<ServerName, Child>,
  superUser: Api,
  dbUrl: string,
  s: TrackingSettings,
  { log: say }: { log: (line: string) => void },
): Promise<TrackingResult> {
  const loadBefore = loadAverage();
  const offers = await acceptedOffers({ baseUrl: servers.service.url, token: superUser.token }, s.networks, s.offersPerNetwork);
  say(`tracking: ${offers.length} accepted offers in ${s.networks} networks`);
  const requests = hitRequests(offers.map((o) => o.path));
  const spec = { path: offers[0]!.path, token: 'none', requests, connections: s.connections };
  const acknowledged: Record<ServerName, number> = { service: 0, baseline: 0 };
  const prober = await startProber({ url: `${servers.service.url}/v1/me`, token: superUser.token, rate: s.meRate });
  const runs: TrackingRun[] = [];
  try {
    for (const name of ['service', 'baseline'] as const) {
      say(`tracking: warm-up ${name} ${settings.warmup} s`);
      const w = await load(servers[name], spec, settings.warmup);
      acknowledged[name] += w.ok;
    }
    for (let round = 1; round <= settings.runs; round++) {
      const order: ServerName[] = round % 2 === 1 ? ['service', 'baseline'] : ['baseline', 'service'];
      for (const name of order) {
        await sleep(1_000);
        let meIdle: MeSample | undefined;
        let me: MeSample | undefined;
        let r: LoadResult;
        if (name === 'service') {
          meIdle = await prober.measure(s.seconds);
          [r, me] = await Promise.all([load(servers[name], spec, s.seconds), prober.measure(s.seconds)]);
        } else {
          r = await load(servers[name], spec, s.seconds);
        }
        acknowledged[name] += r.ok;
        runs.push({ server: name, round, ...r, me, meIdle });
        say(
          `tracking round ${round} ${name.padEnd(8)}: ${fmtInt(r.rps)} hits/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms, server CPU ${fmtInt(r.serverCpuUsPerReq)} µs/hit, Postgres CPU ${fmtInt(r.pgCpuUsPerReq)} µs/hit, other ${Math.round(r.otherCpuPct)} %` +
            (me && meIdle ? `; /v1/me p99 ${fmtMs(me.p99)} ms (idle ${fmtMs(meIdle.p99)} ms)` : '') +
            (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''),
        );
      }
    }
  } finally {
    prober.stop();
  }
  // autocannon does not wait for its last requests in flight: let them land before counting.
  await sleep(1_000);
  const db = postgres(dbUrl, { max: 1, onnotice: () => {} });
  try {
    const offerIds = offers.map((o) => o.offerId);
    const stored = {
      service: { acknowledged: acknowledged.service, ...(await storedHits(db, 'service', offerIds)) },
      baseline: { acknowledged: acknowledged.baseline, ...(await storedHits(db, 'baseline', offerIds)) },
    };
    return { settings: s, runs, offers: offers.length, networks: s.networks, stored, loadBefore };
  } finally {
    await db.end({ timeout: 5 });
  }
}

export interface TrackingSummary {
  service: { rps: number; p50: number; p99: number; cpuUs: number; pgCpuUs: number };
  baseline: { rps: number; p50: number; p99: number; cpuUs: number; pgCpuUs: number };
  me: { p50: number; p99: number; idleP50: number; idleP99: number };
  throughputRatio: number;
  p99Ratio: number;
  meRatio: number;
  met: { throughput: boolean; p99: boolean; rate: boolean; me: boolean };
  /** No failures, and every acknowledged hit stored (rollups and rows), on both servers. */
  valid: boolean;
}

export function summarizeTracking(r: TrackingResult): TrackingSummary {
  const pick = (server: ServerName) => {
    const rs = r.runs.filter((x) => x.server === server);
    return {
      rps: median(rs.map((x) => x.rps)),
      p50: median(rs.map((x) => x.p50)),
      p99: median(rs.map((x) => x.p99)),
      cpuUs: median(rs.map((x) => x.serverCpuUsPerReq)),
      pgCpuUs: median(rs.map((x) => x.pgCpuUsPerReq)),
    };
  };
  const service = pick('service');
  const baseline = pick('baseline');
  const svc = r.runs.filter((x) => x.server === 'service');
  // Per run against the idle just before it; the median of the runs' ratios.
  const meRatio = median(svc.map((x) => x.me!.p99 / x.meIdle!.p99));
  const me = {
    p50: median(svc.map((x) => x.me!.p50)),
    p99: median(svc.map((x) => x.me!.p99)),
    idleP50: median(svc.map((x) => x.meIdle!.p50)),
    idleP99: median(svc.map((x) => x.meIdle!.p99)),
  };
  const throughputRatio = service.rps / baseline.rps;
  const p99Ratio = service.p99 / baseline.p99;
  const stored = (['service', 'baseline'] as const).every((n) => {
    const x = r.stored[n];
    return x.rollupHits >= x.acknowledged && x.rows === x.rollupHits;
  });
  return {
    service,
    baseline,
    me,
    throughputRatio,
    p99Ratio,
    meRatio,
    met: {
      throughput: throughputRatio >= TRACKING_TARGETS.throughputRatio,
      p99: p99Ratio <= TRACKING_TARGETS.p99Ratio,
      rate: service.rps >= TRACKING_TARGETS.hitsPerSecond,
      me: meRatio <= TRACKING_TARGETS.meP99Ratio,
    },
    valid: stored && r.runs.every((x) => x.errors + x.non2xx === 0) && svc.every((x) => x.me!.failed + x.meIdle!.failed === 0),
  };
}

export const trackingMet = (r: TrackingResult) => {
  const s = summarizeTracking(r);
  return s.valid && Object.values(s.met).every(Boolean);
};

export function trackingLogLine(r: TrackingResult): string {
  const s = summarizeTracking(r);
  const m = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return (
    `tracking: service ${fmtInt(s.service.rps)} hits/s p99 ${fmtMs(s.service.p99)} ms | baseline ${fmtInt(s.baseline.rps)} hits/s p99 ${fmtMs(s.baseline.p99)} ms | ` +
    `throughput ${s.throughputRatio.toFixed(2)}× (${m(s.met.throughput)}), p99 ${s.p99Ratio.toFixed(2)}× (${m(s.met.p99)}), ≥ ${fmtInt(TRACKING_TARGETS.hitsPerSecond)} hits/s (${m(s.met.rate)}), ` +
    `/v1/me p99 ${fmtMs(s.me.p99)} ms vs idle ${fmtMs(s.me.idleP99)} ms = ${s.meRatio.toFixed(2)}× (${m(s.met.me)})` +
    (s.valid ? '' : ' INVALID (failures, or acknowledged hits not all stored)')
  );
}

export function trackingVerdicts(r: TrackingResult | undefined, error: string | undefined): OtherVerdict[] {
  if (!r) return [{ title: 'tracking hits vs baseline', result: `not measured: ${error ?? 'skipped'}`, met: error?.startsWith('skipped') ?? false }];
  const s = summarizeTracking(r);
  const row = (title: string, result: string, met: boolean) => ({ title, result: `${result} — ${verdict(met && s.valid)}`, met: met && s.valid });
  return [
    row(
      'tracking `GET /t/{token}`: throughput service/baseline',
      `${s.throughputRatio.toFixed(2)}× (≥ ${TRACKING_TARGETS.throughputRatio})`,
      s.met.throughput,
    ),
    row('tracking `GET /t/{token}`: p99 service/baseline', `${s.p99Ratio.toFixed(2)}× (≤ ${TRACKING_TARGETS.p99Ratio})`, s.met.p99),
    row('tracking `GET /t/{token}`: hits/s', `${fmtInt(s.service.rps)} (≥ ${fmtInt(TRACKING_TARGETS.hitsPerSecond)})`, s.met.rate),
    row('`GET /v1/me` p99 while hits flow ÷ idle', `${s.meRatio.toFixed(2)}× (≤ ${TRACKING_TARGETS.meP99Ratio})`, s.met.me),
  ];
}

export function renderTrackingSection(
  r: TrackingResult | undefined,
  info: { error?: string; command: string; date: string; machine: string },
): string[] {
  const lines = [TRACKING_SECTION_TITLE, ''];
  if (!r || info.error) return [...lines, `Not measured: ${info.error ?? 'skipped'}.`, ''];
  const s = summarizeTracking(r);
  const st = r.settings;
  const row = (name: ServerName, x: TrackingSummary['service']) =>
    `| ${name} | ${fmtInt(x.rps)} | ${fmtMs(x.p50)} | ${fmtMs(x.p99)} | ${fmtInt(x.cpuUs)} | ${fmtInt(x.pgCpuUs)} | ${fmtInt(r.stored[name].acknowledged)} / ${fmtInt(r.stored[name].rollupHits)} / ${fmtInt(r.stored[name].rows)} |`;
  return [
    ...lines,
    `Measured ${info.date} with \`${info.command}\` on ${info.machine}; load average before: ${r.loadBefore}.`,
    '',
    `Targets: service throughput ≥ ${TRACKING_TARGETS.throughputRatio}× the baseline's, p99 ≤ ${TRACKING_TARGETS.p99Ratio}× the baseline's, ≥ ${fmtInt(TRACKING_TARGETS.hitsPerSecond)} hits/s, and the API's \`GET /v1/me\` p99 meanwhile ≤ ${TRACKING_TARGETS.meP99Ratio}× its idle p99. **Verdict: ${trackingMet(r) ? 'met' : 'MISSED'}.**`,
    '',
    '| server | hits/s (median) | p50 ms | p99 ms | server CPU µs/hit | Postgres CPU µs/hit | hits acknowledged / in rollups / rows |',
    '|---|---:|---:|---:|---:|---:|---|',
    row('service', s.service),
    row('baseline', s.baseline),
    `| **service/baseline** | **${s.throughputRatio.toFixed(2)}×** (${verdict(s.met.throughput)}) | ${(s.service.p50 / s.baseline.p50).toFixed(2)}× | **${s.p99Ratio.toFixed(2)}×** (${verdict(s.met.p99)}) | ${(s.service.cpuUs / s.baseline.cpuUs).toFixed(2)}× | ${(s.service.pgCpuUs / s.baseline.pgCpuUs).toFixed(2)}× | |`,
    '',
    `\`GET /v1/me\` (super_user key, ${st.meRate}/s open loop, from a process of its own): p50 / p99 ${fmtMs(s.me.p50)} / ${fmtMs(s.me.p99)} ms while the service takes hits, ${fmtMs(s.me.idleP50)} / ${fmtMs(s.me.idleP99)} ms idle just before; **${s.meRatio.toFixed(2)}×** (${verdict(s.met.me)}).${s.valid ? '' : ' **INVALID**: failures, or hits acknowledged but not stored.'}`,
    '',
    `- **What**: ${r.offers} offers accepted over the API in ${r.networks} networks; \`GET /t/{token}?episode=…&ts=…&rid=…\` on their tracking URLs in turn, ${st.connections} connections (closed loop), each hit with a user agent out of ${USER_AGENTS.length} podcast apps and browsers, one of ${EPISODES} episodes, and an \`X-Forwarded-For\` address of its own (an IPv4 address out of 2^20, one in eight an IPv6 address in one of 2^16 /64s): almost every hit is a new impression, so the dedupe lookup finds nothing and the whole write happens. The service runs with \`TRUSTED_PROXIES=loopback\` (it believes X-Forwarded-For only from a proxy it trusts; the benchmark stands for the load balancer) and its tracking defaults (group commit every TRACKING_FLUSH_MS = 5 ms or TRACKING_FLUSH_HITS = 500 hits, a pool of its own of TRACKING_DATABASE_POOL_MAX = 2).`,
    `- **Baseline** (\`scripts/bench/tracking-baseline.ts\`): bare \`node:http\` + postgres.js, the same group commit (5 ms / 500 hits, at most 2 batches at a time on a pool of 2), each batch one transaction: the multi-row \`INSERT … SELECT FROM unnest(…)\` into a table shaped like \`tracking_hits\` (its columns, check and two indexes, partitioned by day) and the daily rollup upsert into one shaped like \`tracking_daily\`, answered 204 after COMMIT. It leaves out what the service adds: the counting rules (the dedupe lookup of the last 24 hours, the per-source daily counts, the bot list, the day partitions' locks) and the day's salts.`,
    `- **Runs**: a ${settings.warmup} s warm-up per server, then ${settings.runs} × ${st.seconds} s per server, alternating which goes first; before each of the service's runs \`/v1/me\` alone for ${st.seconds} s (its idle value), then during the run; medians over the runs. After them, every hit a server answered 2xx (warm-ups included) must be in its rollups and its raw rows.`,
    '',
    '<details><summary>Every measured run</summary>',
    '',
    '| round | server | hits/s | p50 ms | p99 ms | max ms | failures | /v1/me p50 / p99 ms (idle) | other CPU % |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|',
    ...r.runs.map(
      (x) =>
        `| ${x.round} | ${x.server} | ${fmtInt(x.rps)} | ${fmtMs(x.p50)} | ${fmtMs(x.p99)} | ${fmtMs(x.max)} | ${x.errors + x.non2xx} | ${x.me && x.meIdle ? `${fmtMs(x.me.p50)} / ${fmtMs(x.me.p99)} (${fmtMs(x.meIdle.p50)} / ${fmtMs(x.meIdle.p99)})` : '—'} | ${Math.round(x.otherCpuPct)} |`,
    ),
    '',
    '</details>',
    '',
  ];
}

/** Starts the tracking baseline on the same database (it makes its own tables). */
export function startTrackingBaseline(processes: Processes, dbUrl: string): Promise<Child> {
  return processes.start(
    'tracking-baseline',
    'scripts/bench/tracking-baseline.ts',
    { ...process.env, NODE_ENV: 'production', DATABASE_URL: dbUrl, HOST: '127.0.0.1' },
    { what: 'the tracking baseline', readyToken: 'none', timeoutMs: 60_000 },
  );
}

async function standalone(): Promise<void> {
  const report = reportAlone(settings.quick);
  await onFreshDatabase(settings.pgUrl, async ({ dbUrl, processes }) => {
    const token = generateApiKeyToken('test');
    const service = await processes.start('service', 'scripts/start.ts', serviceEnvironment(dbUrl, token, TRACKING_SERVICE_ENV), {
      what: 'the service with TRUSTED_PROXIES=loopback',
      readyToken: token,
      timeoutMs: settings.startTimeoutMs,
      nodeArgs: investigation.serviceNodeArgs,
    });
    const baseline = await startTrackingBaseline(processes, dbUrl);
    const result = await runTracking({ service, baseline }, { baseUrl: service.url, token }, dbUrl, tracking, { log });
    log(trackingLogLine(result));
    if (report) {
      const measured = measuredAlone('node --import tsx scripts/bench/scenarios/tracking.ts');
      writeSectionAlone(report, renderTrackingSection(result, measured), TRACKING_SECTION_TITLE);
    }
    if (!trackingMet(result)) process.exitCode = 1;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const main = process.env.TRACKING_ME_PROBE ? Promise.resolve(probe(JSON.parse(process.env.TRACKING_ME_PROBE) as ProbeSpec)) : standalone();
  main.catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
