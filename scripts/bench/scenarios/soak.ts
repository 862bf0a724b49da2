/**
 * Scenario 5, memory over a soak: on a fresh start of the service, a warm-up, then a steady mixed
 * load (GET /v1/me, GET /v1/networks?limit=50, POST campaigns with a new Idempotency-Key) at
 * BENCH_SOAK_RATE req/s for BENCH_SOAK_SECONDS, RSS sampled every BENCH_SOAK_SAMPLE_SECONDS.
 * Verdict: no growth (end/start ratio and the second half's slope).
 */
import { performance } from 'node:perf_hooks';
import { fmtInt, fmtMiB, fmtMs, log, verdict } from '@/scripts/bench/format';
import { autocannonRun, type AutocannonRequest } from '@/scripts/bench/load';
import { procMemory } from '@/scripts/bench/proc';
import type { OtherVerdict } from '@/scripts/bench/report';
import { campaignRequests } from '@/scripts/bench/scenarios/throughput';
import type { Seed } from '@/scripts/bench/seed';
import type { Child } from '@/scripts/bench/services';
import { soak as SOAK } from '@/scripts/bench/settings';
import { median, percentile } from '@/scripts/bench/stats';

/** End RSS at most this much above the post-warm-up RSS … */
const SOAK_GROWTH_LIMIT = 0.1;
/** … and the last half's slope at most this fraction of the post-warm-up RSS per minute (would take ≥ 10 min to grow 10 %). */
const SOAK_SLOPE_LIMIT = 0.01;

export interface SoakResult {
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

export function soakVerdict(s: SoakResult): { growth: number; growthMet: boolean; slopeMet: boolean; met: boolean } {
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
  const t0 = performance.now();
  const timer = onSample ? setInterval(() => onSample((performance.now() - t0) / 1000), SOAK.sampleSeconds * 1000) : undefined;
  try {
    const { result, sorted, elapsedS } = await autocannonRun({
      url: child.url,
      connections: SOAK.connections,
      duration: seconds,
      pipelining: 1,
      headers: {},
      requests,
      idReplacement: true,
      overallRate: SOAK.rate,
    });
    const duration = result.duration > 0 ? result.duration : elapsedS;
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

export async function runSoak(child: Child, { token, networkIds, advertiserIds }: Seed): Promise<SoakResult> {
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

export function soakLogLine(s: SoakResult): string {
  const v = soakVerdict(s);
  return (
    `soak: RSS start ${fmtMiB(s.startKiB)} MiB, end ${fmtMiB(s.endKiB)} MiB (${v.growth >= 0 ? '+' : ''}${(v.growth * 100).toFixed(1)} %), max ${fmtMiB(s.maxKiB)} MiB, ` +
    `last-half slope ${s.slopeMiBPerMin.toFixed(2)} MiB/min; ${fmtInt(s.rps)} req/s, p50 ${fmtMs(s.p50)} p99 ${fmtMs(s.p99)} ms, ${s.failures} failures — ${v.met ? 'met' : 'MISSED'}`
  );
}

export function renderSoakSection(s: SoakResult | undefined, error: string | undefined): string[] {
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

/** The soak's row of the verdict table at the top of the report. */
export function soakVerdictRow(s: SoakResult | undefined, error: string | undefined): OtherVerdict {
  return s
    ? {
        title: `RSS over a ${Math.round(SOAK.seconds)} s soak`,
        result: `${fmtMiB(s.startKiB)} → ${fmtMiB(s.endKiB)} MiB, last-half slope ${s.slopeMiBPerMin.toFixed(2)} MiB/min — ${verdict(soakVerdict(s).met)}`,
        met: soakVerdict(s).met,
      }
    : { title: 'RSS over a soak', result: `not measured: ${error ?? 'skipped'}`, met: error?.startsWith('skipped') ?? false };
}
