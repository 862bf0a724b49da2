/**
 * Fair delivery benchmark (issue 17, item 7): one endpoint hangs with many deliveries queued for
 * it while healthy endpoints of other networks receive events at a steady rate; the healthy
 * deliveries' event → receipt latency is what one slow subscriber must not spoil.
 *
 * Real pieces only, as in webhook-fanout.ts: the service as `npm start` runs it (web + worker, default
 * WORKER_CONCURRENCY 20, WORKER_NETWORK_SHARE 0.25, WEBHOOK_TIMEOUT_MS 15 s, WEBHOOK_ENDPOINT_CONCURRENCY 8) with
 * WEBHOOK_ALLOW_PRIVATE=1; subscriptions over the API; events recorded with the product's
 * `recordEvent`. The hanging endpoint reads each request and never answers (each attempt ends at
 * the 15 s time-out, then is retried). Before the steady phase HANGING_QUEUED events are recorded for it.
 *
 * Usable from run.ts (`runWebhookFairness` + `renderFairnessSection`), or alone:
 *   npx tsx scripts/bench/scenarios/webhook-fairness.ts   # fresh database, own service; prints and
 *                                                          # writes its section of docs/PERFORMANCE.md
 *   BENCH_QUICK=1 npx tsx scripts/bench/scenarios/webhook-fairness.ts   # smoke run, writes nothing
 * Settings: BENCH_FAIR_QUEUED=1000 BENCH_FAIR_RATE=100 BENCH_FAIR_SECONDS=30 BENCH_FAIR_HEALTHY=5
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { sql as dsql } from 'drizzle-orm';
import { connect } from '@/db/client';
import { api, type Api } from '@/scripts/bench/api';
import { fmtInt, log, verdict } from '@/scripts/bench/format';
import { loadAverage } from '@/scripts/bench/proc';
import { onFreshDatabase, serviceEnvironment, startBenchEndpoint } from '@/scripts/bench/services';
import { numberEnv } from '@/scripts/bench/settings';
import { percentile } from '@/scripts/bench/stats';
import { measuredAlone, reportAlone, writeSectionAlone } from '@/scripts/bench/report';
import { record } from '@/scripts/bench/webhook-fanout';
import { generateApiKeyToken } from '@/server/auth/tokens';

export const FAIRNESS_P99_TARGET_MS = 2_000;
export const FAIRNESS_SECTION_TITLE = '## Fair webhook delivery (scripts/bench/scenarios/webhook-fairness.ts)';

export interface FairnessSettings {
  queued: number;
  rate: number;
  seconds: number;
  healthy: number;
}

export function fairnessSettings(quick: boolean): FairnessSettings {
  return {
    queued: Math.round(numberEnv('BENCH_FAIR_QUEUED', quick ? 200 : 1000)),
    rate: numberEnv('BENCH_FAIR_RATE', 100),
    seconds: numberEnv('BENCH_FAIR_SECONDS', quick ? 8 : 30),
    healthy: Math.round(numberEnv('BENCH_FAIR_HEALTHY', 5)),
  };
}

export interface FairnessResult {
  settings: FairnessSettings;
  events: number;
  received: number;
  achievedRate: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Most requests the hanging endpoint held open at once. */
  hangingMaxOpen: number;
  /** Requests the hanging endpoint got during the run. */
  hangingRequests: number;
  /** The hanging subscription's deliveries still pending at the end. */
  hangingPending: number;
  loadBefore: string;
}

/** `/hang`: reads the request, never answers. Anything else: records the first receipt of each `bench_seq` of this run and answers 200. */
async function startReceiver(run: string) {
  const receivedAt = new Map<number, number>();
  const endpoint = await startBenchEndpoint((body, at) => {
    // The run and sequence number ride in offer.accepted's ids (webhook-fanout.ts's `record`).
    const envelope = body as { data: { campaign_id: string; offer_id: string } };
    const seq = Number(envelope.data.offer_id);
    if (envelope.data.campaign_id === run && !receivedAt.has(seq)) receivedAt.set(seq, at);
  });
  return { ...endpoint, receivedAt };
}

async function networkWithHook(a: Api, label: string, url: string): Promise<string> {
  const network = await api<{ id: string }>(a, 'POST', '/networks', { name: `Bench fairness ${label}` });
  await api(a, 'POST', `/networks/${network.id}/webhooks`, { url, events: ['offer.accepted'] });
  return network.id;
}

/** Run against a started service (WEBHOOK_ALLOW_PRIVATE=1) whose database is `dbUrl`. */
export async function runWebhookFairness(
  a: Api,
  dbUrl: string,
  settings: FairnessSettings,
  opts: { log: (msg: string) => void },
): Promise<FairnessResult> {
  const loadBefore = loadAverage();
  const run = `fair-${randomBytes(3).toString('hex')}`;
  const receiver = await startReceiver(run);
  const db = connect(dbUrl, { max: 10 });
  try {
    const hangingNetwork = await networkWithHook(a, 'hanging', `${receiver.url}/hang`);
    const healthy: string[] = [];
    for (let k = 0; k < settings.healthy; k++) healthy.push(await networkWithHook(a, `healthy ${k}`, `${receiver.url}/ok/${k}`));

    // The hanging endpoint's queue: `queued` deliveries, recorded 8 transactions at a time.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < settings.queued) await record(db, hangingNetwork, `${run}-hang`, next++);
      }),
    );
    opts.log(
      `fairness: ${fmtInt(settings.queued)} deliveries queued for the hanging endpoint; ${settings.healthy} healthy networks at ${settings.rate} events/s`,
    );
    await sleep(1_000);

    // Healthy networks, round-robin, on a fixed schedule.
    const events = Math.round(settings.rate * settings.seconds);
    const committedAt = new Array<number>(events).fill(Number.NaN);
    const t0 = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < events; i++) {
      const wait = t0 + (i * 1000) / settings.rate - performance.now();
      if (wait > 1) await sleep(wait);
      pending.push(record(db, healthy[i % healthy.length]!, run, i).then(() => void (committedAt[i] = performance.now())));
    }
    await Promise.all(pending);
    const achievedRate = (events / (performance.now() - t0)) * 1000;
    const deadline = performance.now() + 120_000;
    while (receiver.receivedAt.size < events && performance.now() < deadline) await sleep(50);
    const latencies = [...receiver.receivedAt].map(([seq, at]) => at - committedAt[seq]!).sort((x, y) => x - y);
    const [row] = await db.db.execute<{ n: string }>(
      dsql`select count(*) as n from webhook_deliveries where network_id = ${hangingNetwork} and status = 'pending'`,
    );
    return {
      settings,
      events,
      received: receiver.receivedAt.size,
      achievedRate,
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
      hangingMaxOpen: receiver.hanging.maxOpen,
      hangingRequests: receiver.hanging.requests,
      hangingPending: Number(row!.n),
      loadBefore,
    };
  } finally {
    await db.close();
    await receiver.close();
  }
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

export function fairnessLogLine(r: FairnessResult): string {
  return (
    `fairness: healthy ${fmtInt(r.received)}/${fmtInt(r.events)} at ${fmt(r.achievedRate)} events/s, latency p50 ${fmt(r.p50)} / p90 ${fmt(r.p90)} / p99 ${fmt(r.p99)} / max ${fmt(r.max)} ms; ` +
    `hanging endpoint: ${r.hangingRequests} requests, at most ${r.hangingMaxOpen} open at once, ${fmtInt(r.hangingPending)} still pending`
  );
}

export function fairnessMet(r: FairnessResult): boolean {
  return r.received === r.events && r.p99 < FAIRNESS_P99_TARGET_MS;
}

export function renderFairnessSection(
  r: FairnessResult | undefined,
  info: { error?: string; command: string; date: string; machine: string },
): string[] {
  const lines = [FAIRNESS_SECTION_TITLE, ''];
  if (!r || info.error) return [...lines, `Not measured: ${info.error ?? 'skipped'}.`, ''];
  const s = r.settings;
  return [
    ...lines,
    `Measured ${info.date} with \`${info.command}\` on ${info.machine}; load average before: ${r.loadBefore}.`,
    '',
    `Target: p99 event → receipt < ${fmtInt(FAIRNESS_P99_TARGET_MS)} ms for healthy endpoints at ${s.rate} events/s while another endpoint hangs with ${fmtInt(s.queued)} deliveries queued — ${verdict(fairnessMet(r))} (p99 ${fmt(r.p99)} ms).`,
    '',
    `| healthy: ${s.rate} events/s × ${s.seconds} s over ${s.healthy} networks | ms |`,
    '|---|---|',
    `| event → receipt p50 | ${fmt(r.p50)} |`,
    `| event → receipt p90 | ${fmt(r.p90)} |`,
    `| event → receipt p99 | **${fmt(r.p99)}** |`,
    `| event → receipt max | ${fmt(r.max)} |`,
    '',
    `Healthy deliveries received: ${fmtInt(r.received)} of ${fmtInt(r.events)} (achieved ${fmt(r.achievedRate)} events/s). The hanging endpoint got ${r.hangingRequests} requests and held at most ` +
      `**${r.hangingMaxOpen}** open at once (the lesser of its network's share, WORKER_NETWORK_SHARE 0.25 of WORKER_CONCURRENCY 20 = 5, and WEBHOOK_ENDPOINT_CONCURRENCY, 8; counted at the receiver, where a connection the service dropped at its time-out counts until the receiver sees it close, so a retry can overlap it briefly); ${fmtInt(r.hangingPending)} of its deliveries were still pending at the end — they wait in its lanes, none is dropped.`,
    '',
    "- **Setup**: the service as `npm start` runs it with `WEBHOOK_ALLOW_PRIVATE=1` and default settings (15 s time-out), fresh database. One network's subscription points at an endpoint that reads each request and never answers; its deliveries are recorded first (8 transactions at a time). Then events of the healthy networks (one subscription each, answering 200 at once) are recorded round-robin on a fixed schedule; latency = receipt − the recording COMMIT returned (one clock), as in the fan-out benchmark.",
    "- **Before the bound** (issue 17): an endpoint answering after 14 s with 60 events queued delayed another network's delivery by 41.6 s, because its attempts held every worker slot.",
    "- **Why lanes only for slow endpoints**: a first version put every delivery into a lane. On this machine the fan-out benchmark's single subscription at 100 events/s then measured p99 57 s and a burst drained at 17 deliveries/s, because graphile-worker takes one job per named queue per fetch and nothing wakes it when a queue frees (it waits for its 2 s poll). Healthy endpoints' jobs now stay out of lanes; only a slow endpoint's backlog waits in them.",
    '',
  ];
}

async function standalone(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const settings = fairnessSettings(quick);
  const pgUrl = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const report = reportAlone(quick);
  await onFreshDatabase(pgUrl, async ({ dbUrl, processes }) => {
    const token = generateApiKeyToken('test');
    const service = await processes.start('service', 'scripts/start.ts', serviceEnvironment(dbUrl, token, { WEBHOOK_ALLOW_PRIVATE: '1' }), {
      what: 'the service',
      readyToken: token,
      timeoutMs: 900_000,
    });
    const result = await runWebhookFairness({ baseUrl: service.url, token }, dbUrl, settings, { log });
    log(fairnessLogLine(result));
    if (report) {
      const section = renderFairnessSection(result, measuredAlone('npx tsx scripts/bench/scenarios/webhook-fairness.ts'));
      writeSectionAlone(report, section, FAIRNESS_SECTION_TITLE);
    }
    if (!fairnessMet(result)) process.exitCode = 1;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  standalone().catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
