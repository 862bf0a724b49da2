/**
 * Scenario 6, the postgres.js pool under sustained load (pg-pool.ts, the regression benchmark of
 * patches/postgres+3.4.9.patch), run after every server has stopped, with the CPU the rest of the
 * machine used meanwhile.
 */
import { performance } from 'node:perf_hooks';
import { fmtInt, log } from '@/scripts/bench/format';
import { runPoolBenchmark, type PoolBenchmarkResult } from '@/scripts/bench/pg-pool';
import { machineBusyMs, postgresCpuMs, softirqThreadsCpuMs } from '@/scripts/bench/proc';
import { NOISE_LIMIT_PCT } from '@/scripts/bench/report';
import { POOL_MAX, settings } from '@/scripts/bench/settings';
import { median } from '@/scripts/bench/stats';

/** The unpatched Queue loses ~60 % within 15 s; noise on this machine moves single windows by ~20 %. */
const POOL_TREND_LIMIT = 0.75;

export interface PoolRun {
  pool: PoolBenchmarkResult;
  /** CPU used by the rest of the machine during the run, % of one core */
  otherPct: number;
}

/** Median of the second half of the windows ÷ median of the first half (a middle window counts in neither). */
function poolTrend(pool: PoolBenchmarkResult): number {
  const w = pool.windows;
  const half = Math.floor(w.length / 2);
  if (half === 0) return 1;
  return median(w.slice(w.length - half)) / median(w.slice(0, half));
}

export async function runPool(dbUrl: string): Promise<PoolRun> {
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
  const pool = await runPoolBenchmark({
    url: dbUrl,
    seconds: settings.poolSeconds,
    onWindow: (w) => {
      end = snapshot();
      log(`  pool window ${w.window}: ${fmtInt(w.qps)} queries/s`);
    },
  });
  const selfMs = (end.self.user - start.self.user + end.self.system - start.self.system) / 1000;
  const otherPct = Math.max(0, ((end.busy - start.busy - selfMs) / (end.at - start.at)) * 100);
  log(
    `pool: first ${fmtInt(pool.first)}/s, last ${fmtInt(pool.last)}/s, ratio ${pool.ratio}, ` +
      `second/first half ${poolTrend(pool).toFixed(2)}, other CPU ${Math.round(otherPct)} %`,
  );
  return { pool, otherPct };
}

export function renderPoolSection(r: PoolRun | undefined, error: string | undefined): string[] {
  const lines = ['## postgres.js pool under sustained load (scripts/bench/pg-pool.ts)', ''];
  if (!r) return [...lines, `Not measured: ${error ?? 'skipped'}.`, ''];
  const { pool, otherPct } = r;
  const trend = poolTrend(pool);
  const flat = trend >= POOL_TREND_LIMIT;
  lines.push(
    `64 concurrent \`select 1\` on a ${POOL_MAX}-connection pool for ${settings.poolSeconds} s (run after both servers had stopped), queries/s per 5 s window:`,
    '',
    '| window | ' + pool.windows.map((_, i) => String(i + 1)).join(' | ') + ' |',
    '|---|' + pool.windows.map(() => '---').join('|') + '|',
    '| queries/s | ' + pool.windows.map(fmtInt).join(' | ') + ' |',
    '',
    `First window ${fmtInt(pool.first)}/s, last window ${fmtInt(pool.last)}/s, ratio last/first **${pool.ratio.toFixed(3)}**. ` +
      `Verdict on the median of the second half of the windows over that of the first half (one noisy 5 s window on a shared 2-core machine moves last/first by ±20 %): ` +
      `**${trend.toFixed(2)}** — ${flat ? `**flat** (≥ ${POOL_TREND_LIMIT}).` : `**DEGRADING** (< ${POOL_TREND_LIMIT}): is the patch applied? Run \`npx patch-package\`.`}` +
      ` Unrelated CPU use meanwhile: ${Math.round(otherPct)} % of one core${otherPct > NOISE_LIMIT_PCT ? ' — **the machine was busy; rerun before trusting the ratio**' : ''}.`,
    '',
    'Without the patch, postgres.js 3.4.9 decays steadily in this test, to well under half of its first window within 15–20 s; with it, windows only fluctuate.',
    '',
  );
  return lines;
}
