/**
 * Scenario 2, offer list latency at two sizes (keyset pagination): in two networks an active
 * campaign and an opted-in podcast over the API, then offers by one INSERT … SELECT generate_series
 * (BENCH_OFFERS_SMALL, then grown to BENCH_OFFERS_LARGE), VACUUM ANALYZE + CHECKPOINT, and at each
 * size GET …/offers?limit=50, the first page and a deep page (a cursor, signed as the service signs
 * it, naming the middle row), over BENCH_LIST_CONNECTIONS connections.
 */
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { api, call } from '@/scripts/bench/api';
import { fmtInt, fmtMs, fmtRows, log, verdict } from '@/scripts/bench/format';
import { load } from '@/scripts/bench/load';
import type { OtherVerdict } from '@/scripts/bench/report';
import type { Child } from '@/scripts/bench/services';
import { lists, settings } from '@/scripts/bench/settings';
import { median } from '@/scripts/bench/stats';

export const LIST_RATIO_TARGET = 1.2;
export const OFFER_SIZES = lists.sizes;
const LIST_SECONDS = lists.seconds;
const LIST_CONNECTIONS = lists.connections;
const LIST_LIMIT = 50;
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
export interface ListResult {
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

export async function runOfferLists(
  service: Child,
  token: string,
  db: postgres.Sql,
  networks: Array<{ networkId: string; advertiserId: string }>,
  appSecret: string | undefined,
): Promise<ListResult> {
  const person = { baseUrl: service.url, token };
  // [0]: the network whose list is measured; [1]: another network whose offers interleave with it.
  const parents: Array<{ networkId: string; campaignId: string; podcastId: string }> = [];
  for (const { networkId, advertiserId } of networks) {
    const campaign = await api<{ id: string }>(person, 'POST', `/networks/${networkId}/campaigns`, {
      name: 'Bench list campaign',
      advertiser_id: advertiserId,
      status: 'active',
    });
    const podcast = await api<{ id: string }>(person, 'POST', `/networks/${networkId}/podcasts`, { name: 'Bench list podcast', host_name: 'Sam' });
    await api(person, 'POST', `/networks/${networkId}/podcasts/${podcast.id}/opt-in`);
    parents.push({ networkId, campaignId: campaign.id, podcastId: podcast.id });
  }
  const [mine, other] = parents as [(typeof parents)[0], (typeof parents)[0]];
  const networkId = mine.networkId;
  const rootSecret = appSecret ?? (await db<Array<{ value: string }>>`select value from instance_secrets where name = 'app_secret_key'`)[0]?.value;
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
        log(
          `offers ${fmtRows(size)} ${page} page round ${round}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms` +
            (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''),
        );
      }
    }
  }
  return result;
}

export interface ListSummary {
  page: ListPage;
  small: { p50: number; p99: number; rps: number };
  large: { p50: number; p99: number; rps: number };
  p50Ratio: number;
  p99Ratio: number;
  met: boolean;
  valid: boolean;
}

export function summarizeLists(r: ListResult): ListSummary[] {
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

export function renderListSection(r: ListResult | undefined, error: string | undefined): string[] {
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
    ...r.runs.map(
      (x) =>
        `| ${fmtRows(x.size)} | ${x.page} | ${x.round} | ${fmtInt(x.rps)} | ${fmtMs(x.p50)} | ${fmtMs(x.p99)} | ${fmtMs(x.max)} | ${x.failures} |`,
    ),
    '',
    '</details>',
    '',
  );
  return lines;
}

export function listLogLine(l: ListSummary): string {
  return (
    `offers ${l.page} page: ${fmtRows(OFFER_SIZES[0])} p50 ${fmtMs(l.small.p50)} p99 ${fmtMs(l.small.p99)} ms | ${fmtRows(OFFER_SIZES[1])} p50 ${fmtMs(l.large.p50)} p99 ${fmtMs(l.large.p99)} ms | ` +
    `ratio p50 ${l.p50Ratio.toFixed(2)}× (${l.met ? 'met' : 'MISSED'}), p99 ${l.p99Ratio.toFixed(2)}×` +
    (l.valid ? '' : ' INVALID (errors/non-2xx)')
  );
}

/** The offer list rows of the verdict table at the top of the report. */
export function listVerdicts(r: ListResult | undefined, error: string | undefined): OtherVerdict[] {
  if (!r) return [{ title: 'offers list latency', result: `not measured: ${error ?? 'skipped'}`, met: error?.startsWith('skipped') ?? false }];
  return summarizeLists(r).map((l) => ({
    title: `offers list, ${l.page} page: p50 at ${fmtRows(OFFER_SIZES[1])} ÷ at ${fmtRows(OFFER_SIZES[0])} rows`,
    result: `${l.p50Ratio.toFixed(2)}× (≤ ${LIST_RATIO_TARGET}) — ${verdict(l.met && l.valid)}`,
    met: l.met && l.valid,
  }));
}
