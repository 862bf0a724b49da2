/**
 * HTTP load with autocannon (programmatic, in the benchmark process), recording every 2xx response
 * time, and what the load cost: CPU of the server, of Postgres, of this process and of the rest of
 * the machine (noise), and the server's RSS afterwards.
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { machineBusyMs, postgresCpuMs, procCpuMs, procMemory, procSyscalls, softirqThreadsCpuMs } from '@/scripts/bench/proc';
import type { Child } from '@/scripts/bench/services';
import { settings } from '@/scripts/bench/settings';
import { percentile } from '@/scripts/bench/stats';

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}
export interface AutocannonRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request of this entry (autocannon's hook): the request as it will be sent. */
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
  headers: Record<string, string>;
  requests?: AutocannonRequest[];
  idReplacement?: boolean;
  overallRate?: number;
}
type Autocannon = (opts: AutocannonOptions, cb: (err: Error | null, result: AutocannonResult) => void) => EventEmitter;
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;
export const autocannonVersion = (require('autocannon/package.json') as { version: string }).version;

/** One autocannon run: its result, every 2xx response time in ascending order, and its wall time. */
export async function autocannonRun(opts: AutocannonOptions): Promise<{ result: AutocannonResult; sorted: Float64Array; elapsedS: number }> {
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const t0 = performance.now();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const tracker = autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
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
  return { result, sorted: latencies.subarray(0, n).sort(), elapsedS: (performance.now() - t0) / 1000 };
}

/** What one measured load run found. */
export interface LoadResult {
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
  /**
   * The server's read and write system calls per request (its sockets to clients and Postgres,
   * and its log): equal counts for the two servers mean the same round trips and the same
   * batching, so a CPU gap between them is in user space.
   */
  readsPerReq: number;
  writesPerReq: number;
}

/**
 * What one load run sends: GETs of one path, or (`requests`) autocannon's request list, cycled per
 * connection; `idReplacement` turns every `[<id>]` into a fresh unique id per request.
 */
export interface LoadSpec {
  path: string;
  token: string;
  requests?: AutocannonRequest[];
  connections?: number;
}

export async function load(child: Child, spec: LoadSpec, seconds: number): Promise<LoadResult> {
  const { path, token } = spec;
  const cpu0 = procCpuMs(child.pid);
  const pg0 = postgresCpuMs();
  const busy0 = machineBusyMs();
  const irq0 = softirqThreadsCpuMs();
  const client0 = process.cpuUsage();
  const syscalls0 = procSyscalls(child.pid);
  const { result, sorted, elapsedS } = await autocannonRun({
    url: `${child.url}${path}`,
    connections: spec.connections ?? settings.connections,
    duration: seconds,
    pipelining: 1,
    headers: { authorization: `Bearer ${token}` },
    ...(spec.requests ? { requests: spec.requests, idReplacement: true } : {}),
  });
  const serverCpuMs = procCpuMs(child.pid) - cpu0;
  const syscalls = procSyscalls(child.pid);
  const pgCpuMs = postgresCpuMs() - pg0;
  const busyMs = machineBusyMs() - busy0 - (softirqThreadsCpuMs() - irq0);
  const client = process.cpuUsage(client0);
  const rssAfterKiB = procMemory(child.pid)?.rssKiB ?? Number.NaN;
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
    readsPerReq: ok > 0 ? (syscalls.reads - syscalls0.reads) / ok : Number.NaN,
    writesPerReq: ok > 0 ? (syscalls.writes - syscalls0.writes) / ok : Number.NaN,
  };
}
