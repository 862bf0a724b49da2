/**
 * The delivery report as data grows (issue 39, "Performance"): one flight's delivery over the last
 * 30 days, timed with BENCH_TRACKING_HITS_SMALL (10 k) and then BENCH_TRACKING_HITS_LARGE (10 M) hits
 * stored. Target: p50 with the large store ≤ 1.5 × p50 with the small one.
 *
 * Data: in one network a campaign, a flight over the 30 days and an offer on it accepted over the
 * API; in another network another accepted offer (its hits interleave with the measured one's in the
 * table and its indexes, as networks' hits do). Hits are seeded by SQL, half to each offer: one
 * `INSERT … SELECT generate_series` into `tracking_hits` — its day partitions made first, named and
 * bounded as server/services/tracking/partitions.ts makes them — each hit at a time spread evenly
 * over the 30 days (hit g at the fractional part of g × golden ratio, so growing the store adds hits
 * to every day), with an outcome (1 in 50 a bot, 1 in 10 a duplicate, the rest counted), a source
 * hash out of 100,003, a dedupe key and a user agent; then the offers' `tracking_daily` rollups are
 * recomputed from the hits, as the recorder keeps them (hits, impressions, bots, duplicates; none
 * abnormal). Not seeded: the sources' daily counts (`tracking_sources`), which only today's hits read.
 * After each insert `VACUUM ANALYZE` and `CHECKPOINT`.
 *
 * What is timed: `GET /v1/networks/{n}/reports/delivery?group_by=day&flight_id=…&from=…&to=…` when the
 * service has it, else `GET /v1/networks/{n}/offers/{offerId}/delivery?from=…&to=…` (the flight's one
 * offer), one connection, a 3 s warm-up then BENCH_RUNS × BENCH_DELIVERY_SECONDS per size; the answer
 * is checked against the seeded rollups first.
 *
 * Usable from run.ts (`runDeliveryReports` + `deliveryReportLogLine` + `renderDeliveryReportSection` +
 * `deliveryReportVerdicts`), or alone:
 *   node --import tsx scripts/bench/scenarios/delivery-report-scale.ts                 # writes its section of docs/PERFORMANCE.md
 *   BENCH_QUICK=1 node --import tsx scripts/bench/scenarios/delivery-report-scale.ts   # 10 k / 1 M hits, short, writes nothing
 *   BENCH_REPORT=- …                                                                   # full size, writes nothing
 * Settings: settings.ts `deliveryReports` (BENCH_TRACKING_HITS_SMALL/LARGE, BENCH_DELIVERY_SECONDS), BENCH_RUNS, BENCH_PG_URL.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { api, call, type Api } from '@/scripts/bench/api';
import { fmtInt, fmtMs, fmtRows, log, verdict } from '@/scripts/bench/format';
import { load } from '@/scripts/bench/load';
import { loadAverage } from '@/scripts/bench/proc';
import { measuredAlone, reportAlone, writeSectionAlone, type OtherVerdict } from '@/scripts/bench/report';
import { onFreshDatabase, serviceEnvironment, type Child } from '@/scripts/bench/services';
import { deliveryReports, investigation, settings, type DeliveryReportSettings } from '@/scripts/bench/settings';
import { median } from '@/scripts/bench/stats';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { addDays, utcDay } from '@/server/services/tracking/hit-rules';
import { partitionName } from '@/server/services/tracking/partitions';

export const DELIVERY_SECTION_TITLE = '## Delivery report as data grows (scripts/bench/scenarios/delivery-report-scale.ts)';
export const DELIVERY_RATIO_TARGET = 1.5;
const DAYS = 30;

interface ReportRun {
  size: number;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}

export interface DeliveryReportResult {
  settings: DeliveryReportSettings;
  /** Which endpoint was timed: the flight report, or (until it exists) the offer's delivery. */
  endpoint: 'report' | 'offer';
  path: string;
  seeds: Array<{ size: number; rows: number; ms: number; rollupMs: number; maintenanceMs: number }>;
  runs: ReportRun[];
  loadBefore: string;
}

/** Two networks, each an advertiser, an active campaign and an opted-in podcast; in the first a flight over the window. */
async function acceptedOffers(a: Api, from: string, to: string) {
  const made: Array<{ networkId: string; offerId: string; flightId?: string }> = [];
  for (const measured of [true, false]) {
    const { id: n } = await api<{ id: string }>(a, 'POST', '/networks', { name: measured ? 'Bench delivery report' : 'Bench delivery other' });
    const advertiser = await api<{ id: string }>(a, 'POST', `/networks/${n}/advertisers`, { name: 'Acme' });
    const campaign = await api<{ id: string }>(a, 'POST', `/networks/${n}/campaigns`, {
      name: 'Delivered',
      advertiser_id: advertiser.id,
      script: 'Sleep better with Acme.',
      status: 'active',
    });
    const podcast = await api<{ id: string }>(a, 'POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
    await api(a, 'POST', `/networks/${n}/podcasts/${podcast.id}/opt-in`);
    let flightId: string | undefined;
    if (measured) {
      const flight = await api<{ id: string }>(a, 'POST', `/networks/${n}/campaigns/${campaign.id}/flights`, {
        name: 'Thirty days',
        starts_at: `${from}T00:00:00Z`,
        ends_at: `${addDays(to, 1)}T00:00:00Z`,
        placement: 'pre',
        pricing: { model: 'cpm', amount_cents: 2500, currency: 'USD' },
        impression_goal: 10_000_000,
      });
      flightId = flight.id;
    }
    const offer = await api<{ id: string }>(
      a,
      'POST',
      `/networks/${n}/offers`,
      flightId ? { flight_id: flightId, podcast_id: podcast.id } : { campaign_id: campaign.id, podcast_id: podcast.id },
    );
    await api(a, 'POST', `/networks/${n}/offers/${offer.id}/accept`);
    made.push({ networkId: n, offerId: offer.id, flightId });
  }
  return made as [{ networkId: string; offerId: string; flightId: string }, { networkId: string; offerId: string }];
}

/** The tracked impressions an answer shows, summed: the offer's `totals`, or the report's rows. */
function trackedImpressions(body: unknown): number | undefined {
  const b = body as { totals?: { tracked_impressions?: number }; items?: unknown[]; rows?: unknown[] };
  if (typeof b.totals?.tracked_impressions === 'number') return b.totals.tracked_impressions;
  const rows = b.items ?? b.rows;
  if (!Array.isArray(rows)) return undefined;
  let sum = 0;
  for (const row of rows as Array<Record<string, unknown>>) {
    const tracked = row.tracked_impressions ?? (row.tracked as { impressions?: unknown } | undefined)?.impressions;
    if (typeof tracked !== 'number') return undefined;
    sum += tracked;
  }
  return sum;
}

export async function runDeliveryReports(
  service: Child,
  a: Api,
  dbUrl: string,
  s: DeliveryReportSettings,
  { log: say }: { log: (line: string) => void },
): Promise<DeliveryReportResult> {
  const loadBefore = loadAverage();
  const to = utcDay(Date.now());
  const from = addDays(to, -(DAYS - 1));
  const [mine, other] = await acceptedOffers(a, from, to);
  const reportPath = `/v1/networks/${mine.networkId}/reports/delivery?group_by=day&flight_id=${mine.flightId}&from=${from}&to=${to}`;
  const probe = await call(`${service.url}${reportPath}`, a.token);
  const endpoint = probe.status === 200 ? 'report' : 'offer';
  const timedPath = endpoint === 'report' ? reportPath : `/v1/networks/${mine.networkId}/offers/${mine.offerId}/delivery?from=${from}&to=${to}`;
  say(`delivery report: timing ${timedPath}${endpoint === 'offer' ? ` (the flight report answered ${probe.status})` : ''}`);

  const db = postgres(dbUrl, { max: 1, onnotice: () => {} });
  const result: DeliveryReportResult = { settings: s, endpoint, path: timedPath, seeds: [], runs: [], loadBefore };
  try {
    for (let day = from; day <= addDays(to, 1); day = addDays(day, 1)) {
      await db.unsafe(
        `create table if not exists "${partitionName(day)}" partition of "tracking_hits" for values from ('${day}T00:00:00Z') to ('${addDays(day, 1)}T00:00:00Z')`,
      );
    }
    const start = new Date(`${from}T00:00:00Z`);
    // Up to a minute ago: every seeded hit is in the past, in a partition that exists.
    const spanSeconds = (Date.now() - 60_000 - start.getTime()) / 1000;
    let seeded = 0;
    for (const size of s.sizes) {
      const t0 = performance.now();
      await db`
        insert into tracking_hits (network_id, offer_id, received_at, episode, request_id, user_agent, source_hash, dedupe_key, outcome)
        select case when g % 2 = 0 then ${mine.networkId} else ${other.networkId} end,
               case when g % 2 = 0 then ${mine.offerId} else ${other.offerId} end,
               ${start}::timestamptz + make_interval(secs => ${spanSeconds}::float8 * ((g * 0.6180339887498949) - floor(g * 0.6180339887498949))),
               'ep-' || (g % 50), 'r' || g, 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)',
               decode(md5('s' || (g % 100003)), 'hex'), decode(md5('k' || g), 'hex'),
               case when g % 50 = 0 then 'bot' when g % 10 = 0 then 'duplicate' else 'counted' end
          from generate_series(${seeded + 1}::int8, ${size}::int8) as g`;
      const ms = performance.now() - t0;
      const t1 = performance.now();
      await db`
        insert into tracking_daily (network_id, offer_id, day, hits, impressions, bots, duplicates, abnormal)
        select network_id, offer_id, (received_at at time zone 'UTC')::date, count(*),
               count(*) filter (where outcome = 'counted'), count(*) filter (where outcome = 'bot'),
               count(*) filter (where outcome = 'duplicate'), count(*) filter (where outcome = 'abnormal')
          from tracking_hits
         where (network_id, offer_id) in ((${mine.networkId}, ${mine.offerId}), (${other.networkId}, ${other.offerId}))
         group by 1, 2, 3
        on conflict (network_id, offer_id, day) do update
           set hits = excluded.hits, impressions = excluded.impressions, bots = excluded.bots,
               duplicates = excluded.duplicates, abnormal = excluded.abnormal`;
      const rollupMs = performance.now() - t1;
      const t2 = performance.now();
      await db.unsafe('vacuum analyze tracking_hits');
      await db.unsafe('vacuum analyze tracking_daily');
      await db.unsafe('checkpoint');
      const maintenanceMs = performance.now() - t2;
      result.seeds.push({ size, rows: size - seeded, ms, rollupMs, maintenanceMs });
      say(
        `delivery report: inserted ${fmtInt(size - seeded)} hits in ${(ms / 1000).toFixed(1)} s, rollups ${(rollupMs / 1000).toFixed(1)} s, vacuum analyze + checkpoint ${(maintenanceMs / 1000).toFixed(1)} s; ${fmtInt(size)} stored`,
      );
      seeded = size;

      const [expected] = await db<Array<{ impressions: string }>>`
        select coalesce(sum(impressions), 0) as impressions from tracking_daily
         where network_id = ${mine.networkId} and offer_id = ${mine.offerId} and day between ${from}::date and ${to}::date`;
      const answer = await call(`${service.url}${timedPath}`, a.token);
      const shown = trackedImpressions(answer.body);
      if (answer.status !== 200 || (shown !== undefined && shown !== Number(expected!.impressions))) {
        throw new Error(
          `the delivery report shows ${shown} tracked impressions (${answer.status}), the rollups hold ${expected!.impressions}: ${JSON.stringify(answer.body).slice(0, 300)}`,
        );
      }
      if (shown === undefined) say('delivery report: could not find the tracked impressions in the answer; not checked');

      const spec = { path: timedPath, token: a.token, connections: 1 };
      // The first size is measured first: a longer warm-up than the lists', so that it is not the colder JIT that is timed.
      await load(service, spec, 3);
      for (let round = 1; round <= settings.runs; round++) {
        const r = await load(service, spec, s.seconds);
        result.runs.push({ size, round, rps: r.rps, p50: r.p50, p99: r.p99, max: r.max, failures: r.errors + r.non2xx });
        say(
          `delivery report ${fmtRows(size)} hits round ${round}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms` +
            (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''),
        );
      }
    }
  } finally {
    await db.end({ timeout: 5 });
  }
  return result;
}

export interface DeliveryReportSummary {
  small: { p50: number; p99: number; rps: number };
  large: { p50: number; p99: number; rps: number };
  p50Ratio: number;
  p99Ratio: number;
  met: boolean;
  valid: boolean;
}

export function summarizeDeliveryReports(r: DeliveryReportResult): DeliveryReportSummary {
  const at = (size: number) => {
    const rs = r.runs.filter((x) => x.size === size);
    return { p50: median(rs.map((x) => x.p50)), p99: median(rs.map((x) => x.p99)), rps: median(rs.map((x) => x.rps)) };
  };
  const small = at(r.settings.sizes[0]);
  const large = at(r.settings.sizes[1]);
  const p50Ratio = large.p50 / small.p50;
  return {
    small,
    large,
    p50Ratio,
    p99Ratio: large.p99 / small.p99,
    met: p50Ratio <= DELIVERY_RATIO_TARGET,
    valid: r.runs.every((x) => x.failures === 0),
  };
}

export const deliveryReportMet = (r: DeliveryReportResult) => {
  const s = summarizeDeliveryReports(r);
  return s.met && s.valid;
};

export function deliveryReportLogLine(r: DeliveryReportResult): string {
  const s = summarizeDeliveryReports(r);
  const [small, large] = r.settings.sizes;
  return (
    `delivery report (${r.endpoint === 'report' ? 'flight report' : 'offer delivery'}): ${fmtRows(small)} hits p50 ${fmtMs(s.small.p50)} p99 ${fmtMs(s.small.p99)} ms | ` +
    `${fmtRows(large)} hits p50 ${fmtMs(s.large.p50)} p99 ${fmtMs(s.large.p99)} ms | ratio p50 ${s.p50Ratio.toFixed(2)}× (${s.met ? 'met' : 'MISSED'}), p99 ${s.p99Ratio.toFixed(2)}×` +
    (s.valid ? '' : ' INVALID (errors/non-2xx)')
  );
}

export function deliveryReportVerdicts(r: DeliveryReportResult | undefined, error: string | undefined): OtherVerdict[] {
  if (!r)
    return [{ title: 'delivery report as hits grow', result: `not measured: ${error ?? 'skipped'}`, met: error?.startsWith('skipped') ?? false }];
  const s = summarizeDeliveryReports(r);
  const [small, large] = r.settings.sizes;
  return [
    {
      title: `delivery report, one flight over ${DAYS} days: p50 at ${fmtRows(large)} ÷ at ${fmtRows(small)} hits`,
      result: `${s.p50Ratio.toFixed(2)}× (≤ ${DELIVERY_RATIO_TARGET}) — ${verdict(s.met && s.valid)}`,
      met: s.met && s.valid,
    },
  ];
}

export function renderDeliveryReportSection(
  r: DeliveryReportResult | undefined,
  info: { error?: string; command: string; date: string; machine: string },
): string[] {
  const lines = [DELIVERY_SECTION_TITLE, ''];
  if (!r || info.error) return [...lines, `Not measured: ${info.error ?? 'skipped'}.`, ''];
  const s = summarizeDeliveryReports(r);
  const [small, large] = r.settings.sizes;
  return [
    ...lines,
    `Measured ${info.date} with \`${info.command}\` on ${info.machine}; load average before: ${r.loadBefore}.`,
    '',
    `Target: the delivery report of one flight over ${DAYS} days answers with ${fmtRows(large)} hits stored within ${DELIVERY_RATIO_TARGET}× of its time with ${fmtRows(small)} (p50). **Verdict: ${deliveryReportMet(r) ? 'met' : 'MISSED'}.**`,
    '',
    `| ${fmtRows(small)} hits p50 / p99 ms | ${fmtRows(large)} hits p50 / p99 ms | ratio p50 | ratio p99 | ≤ ${DELIVERY_RATIO_TARGET} (p50) |`,
    '|---|---|---|---|---|',
    `| ${fmtMs(s.small.p50)} / ${fmtMs(s.small.p99)} | ${fmtMs(s.large.p50)} / ${fmtMs(s.large.p99)} | **${s.p50Ratio.toFixed(2)}×** | ${s.p99Ratio.toFixed(2)}× | ${verdict(s.met)}${s.valid ? '' : ' (INVALID: errors or non-2xx)'} |`,
    '',
    `- **What**: \`${r.path.replace(/\/networks\/[^/]+/, '/networks/{n}').replace(/(flight_id=|offers\/)[^&/?]+/, '$1…')}\`${r.endpoint === 'offer' ? " (the flight's one offer: the flight report `GET /v1/networks/{n}/reports/delivery?group_by=day&flight_id=…` did not answer 200 on this build)" : ''}, with the super_user key, 1 connection (latency, not throughput), a 3 s warm-up, then ${settings.runs} × ${r.settings.seconds} s per size; medians over the runs. Its tracked impressions are checked against the seeded rollups before each size is timed.`,
    `- **Data**: a flight over the ${DAYS} days and its offer accepted over the API in one network, another accepted offer in a second network; hits by one \`INSERT … SELECT generate_series\` per size into \`tracking_hits\`'s day partitions (made first, as the service names them), half to each offer, spread over the ${DAYS} days (1 in 50 a bot, 1 in 10 a duplicate): ${r.seeds.map((x) => `${fmtInt(x.rows)} hits in ${(x.ms / 1000).toFixed(1)} s`).join(', then ')}; after each, both offers' \`tracking_daily\` rollups recomputed from the hits (${r.seeds.map((x) => `${(x.rollupMs / 1000).toFixed(1)} s`).join(', ')}), then \`VACUUM ANALYZE\` and \`CHECKPOINT\` (${r.seeds.map((x) => `${(x.maintenanceMs / 1000).toFixed(1)} s`).join(', ')}).`,
    '',
    '<details><summary>Every measured run</summary>',
    '',
    '| hits | round | req/s | p50 ms | p99 ms | max ms | failures |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...r.runs.map(
      (x) => `| ${fmtRows(x.size)} | ${x.round} | ${fmtInt(x.rps)} | ${fmtMs(x.p50)} | ${fmtMs(x.p99)} | ${fmtMs(x.max)} | ${x.failures} |`,
    ),
    '',
    '</details>',
    '',
  ];
}

async function standalone(): Promise<void> {
  const report = reportAlone(settings.quick);
  await onFreshDatabase(settings.pgUrl, async ({ dbUrl, processes }) => {
    const token = generateApiKeyToken('test');
    const service = await processes.start('service', 'scripts/start.ts', serviceEnvironment(dbUrl, token), {
      what: 'the service',
      readyToken: token,
      timeoutMs: settings.startTimeoutMs,
      nodeArgs: investigation.serviceNodeArgs,
    });
    const result = await runDeliveryReports(service, { baseUrl: service.url, token }, dbUrl, deliveryReports, { log });
    log(deliveryReportLogLine(result));
    if (report) {
      const measured = measuredAlone('node --import tsx scripts/bench/scenarios/delivery-report-scale.ts');
      writeSectionAlone(report, renderDeliveryReportSection(result, measured), DELIVERY_SECTION_TITLE);
    }
    if (!deliveryReportMet(result)) process.exitCode = 1;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  standalone().catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
