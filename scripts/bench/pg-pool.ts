/**
 * Regression benchmark for postgres.js pool throughput under sustained load
 * (guards patches/postgres+3.4.9.patch, the Queue compaction fix).
 *
 *   npx tsx scripts/bench/pg-pool.ts
 *   BENCH_SECONDS=30 DATABASE_URL=postgres://... npx tsx scripts/bench/pg-pool.ts
 *
 * 64 concurrent workers run `select 1` on a `max: 10` pool. One JSON line per
 * 5-second window is printed, then a summary
 * `{"first_window_qps":…,"last_window_qps":…,"ratio":…}` (ratio = last/first;
 * a healthy pool stays near 1, the unpatched Queue decays well below it).
 */
import { realpathSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface PoolBenchmarkOptions {
  url: string;
  seconds: number;
  /** concurrent workers issuing queries (default 64) */
  concurrency?: number;
  /** pool size (default 10) */
  max?: number;
  /** window length in seconds (default 5; capped at `seconds`) */
  windowSeconds?: number;
  /** called as each window completes */
  onWindow?: (w: PoolBenchmarkWindow) => void;
}

export interface PoolBenchmarkWindow {
  window: number;
  start_s: number;
  end_s: number;
  queries: number;
  qps: number;
}

export interface PoolBenchmarkResult {
  /** queries/s for each window, in order */
  windows: number[];
  first: number;
  last: number;
  /** last / first */
  ratio: number;
}

const round = (n: number, digits = 0) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export async function runPoolBenchmark({
  url,
  seconds,
  concurrency = 64,
  max = 10,
  windowSeconds = 5,
  onWindow,
}: PoolBenchmarkOptions): Promise<PoolBenchmarkResult> {
  if (!(seconds > 0)) throw new Error(`seconds must be > 0, got ${seconds}`);
  const windowMs = Math.min(windowSeconds, seconds) * 1000;
  const durationMs = seconds * 1000;

  const sql = postgres(url, { max, onnotice: () => {} });
  const windows: PoolBenchmarkWindow[] = [];
  let failure: unknown;
  let timer: NodeJS.Timeout | undefined;

  try {
    // Fail fast on a bad URL / unreachable server before timing anything.
    await sql`select 1`;

    const t0 = performance.now();
    const deadline = t0 + durationMs;
    let windowStart = t0;
    let windowCount = 0;

    const closeWindow = (now: number) => {
      const elapsed = now - windowStart;
      if (elapsed <= 0) return;
      const w: PoolBenchmarkWindow = {
        window: windows.length + 1,
        start_s: round((windowStart - t0) / 1000, 3),
        end_s: round((now - t0) / 1000, 3),
        queries: windowCount,
        qps: round((windowCount * 1000) / elapsed),
      };
      windows.push(w);
      onWindow?.(w);
      windowStart = now;
      windowCount = 0;
    };

    timer = setInterval(() => {
      const now = performance.now();
      // Leave the final (possibly short) window to be closed after the workers stop.
      if (now < deadline - 1) closeWindow(now);
    }, windowMs);

    const worker = async () => {
      while (failure === undefined && performance.now() < deadline) {
        try {
          await sql`select 1`;
        } catch (err) {
          failure ??= err;
          return;
        }
        windowCount++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    clearInterval(timer);
    timer = undefined;
    if (failure !== undefined) throw failure;
    closeWindow(performance.now());
  } finally {
    if (timer) clearInterval(timer);
    await sql.end({ timeout: 5 });
  }

  // A trailing sliver (< 20% of a window) is too noisy to be "the last window".
  const full = windows.filter((w, i) => i === 0 || (w.end_s - w.start_s) * 1000 >= windowMs * 0.2);
  const qps = full.map((w) => w.qps);
  const first = qps[0] ?? 0;
  const last = qps[qps.length - 1] ?? 0;
  return { windows: qps, first, last, ratio: first > 0 ? round(last / first, 3) : 0 };
}

async function main() {
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const seconds = Number(process.env.BENCH_SECONDS ?? 20);
  const result = await runPoolBenchmark({
    url,
    seconds,
    onWindow: (w) => console.log(JSON.stringify(w)),
  });
  console.log(
    JSON.stringify({
      first_window_qps: result.first,
      last_window_qps: result.last,
      ratio: result.ratio,
    }),
  );
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
