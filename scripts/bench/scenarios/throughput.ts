/**
 * Scenario 1, the service against the baseline, in two shapes of key: the person's key with a scope
 * on each of the 60 networks (GET /v1/me, GET /v1/networks?limit=50, POST /v1/networks/{n}/campaigns)
 * and the super_user key (GET /v1/me, GET /v1/networks?limit=50, POST /v1/networks), whose light key
 * lookup shows the service's fixed cost per request. Every POST carries a new Idempotency-Key. Per
 * target a warm-up per server, then BENCH_RUNS measured runs per server, alternating which goes
 * first. Before measuring, checks that both servers give the same answers and store the same sealed
 * response on an Idempotency-Key.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type postgres from 'postgres';
import { call } from '@/scripts/bench/api';
import { fmtInt, fmtMiB, fmtMs, log } from '@/scripts/bench/format';
import { load, type AutocannonRequest, type LoadResult, type LoadSpec } from '@/scripts/bench/load';
import type { Seed } from '@/scripts/bench/seed';
import type { Child } from '@/scripts/bench/services';
import { investigation, settings } from '@/scripts/bench/settings';
import { median } from '@/scripts/bench/stats';

/** Which key a target's load uses: the person's (60 scopes) or the super_user bootstrap key. */
export type KeyShape = 'scoped' | 'super';
export const ALL_TARGETS = [
  { id: 'me', path: '/v1/me', title: 'GET /v1/me (60-scope key)', write: false, key: 'scoped' },
  { id: 'networks', path: '/v1/networks?limit=50', title: 'GET /v1/networks?limit=50 (60-scope key)', write: false, key: 'scoped' },
  // Every request: a new Idempotency-Key (autocannon's `[<id>]` replacement), the networks in turn, each with its advertiser.
  {
    id: 'campaigns',
    path: '/v1/networks/{n}/campaigns',
    title: 'POST /v1/networks/{n}/campaigns + Idempotency-Key (60-scope key)',
    write: true,
    key: 'scoped',
  },
  { id: 'me-su', path: '/v1/me', title: 'GET /v1/me (super_user key)', write: false, key: 'super' },
  { id: 'networks-su', path: '/v1/networks?limit=50', title: 'GET /v1/networks?limit=50 (super_user key)', write: false, key: 'super' },
  // Every request creates a network, with a new Idempotency-Key.
  { id: 'networks-post-su', path: '/v1/networks', title: 'POST /v1/networks + Idempotency-Key (super_user key)', write: true, key: 'super' },
] as const;
type Target = (typeof ALL_TARGETS)[number];
type TargetId = Target['id'];
/** BENCH_TARGETS narrows the list (investigations). */
const TARGETS = ALL_TARGETS.filter((t) => investigation.targets.length === 0 || investigation.targets.includes(t.id));
export type ServerName = 'service' | 'baseline';
/** Issue 16's goal, for both key shapes. */
export const THROUGHPUT_TARGET = 0.6;
export const WRITE_THROUGHPUT_TARGET = 0.8;
export const P99_TARGET = 1.5;
export const throughputTarget = (t: { write: boolean }) => (t.write ? WRITE_THROUGHPUT_TARGET : THROUGHPUT_TARGET);

export interface RunResult extends LoadResult {
  server: ServerName;
  target: TargetId;
  round: number;
}

const CAMPAIGN_BODY = (advertiserId: string) =>
  JSON.stringify({ name: 'Bench campaign', advertiser_id: advertiserId, script: 'Acme makes mornings better.' });

/** POST a campaign to each network in turn, each request with a fresh Idempotency-Key (`[<id>]`, replaced per request). */
export function campaignRequests(token: string, networkIds: string[], advertiserIds: string[]): AutocannonRequest[] {
  return networkIds.map((n, i) => ({
    method: 'POST',
    path: `/v1/networks/${n}/campaigns`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'bench-[<id>]' },
    body: CAMPAIGN_BODY(advertiserIds[i]!),
  }));
}

/** POST /v1/networks with a fresh Idempotency-Key per request (the super_user key). */
export function networkRequests(token: string): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      path: '/v1/networks',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'bench-net-[<id>]' },
      body: JSON.stringify({ name: 'Bench network (load)' }),
    },
  ];
}

/** Both servers must do the same work: same /v1/me body, same page of networks, for `token` (with `scopeCount` scopes). */
export async function checkSameAnswers(service: Child, baseline: Child, token: string, scopeCount: number, networkCount = scopeCount): Promise<void> {
  const [sMe, bMe] = await Promise.all([call(`${service.url}/v1/me`, token), call(`${baseline.url}/v1/me`, token)]);
  if (sMe.status !== 200 || bMe.status !== 200) throw new Error(`/v1/me: service ${sMe.status}, baseline ${bMe.status}`);
  const scopes = (sMe.body as { scopes?: unknown[] }).scopes ?? [];
  if (scopes.length !== scopeCount) throw new Error(`/v1/me shows ${scopes.length} scopes, expected ${scopeCount}`);
  if (!isDeepStrictEqual(sMe.body, bMe.body)) {
    throw new Error(`/v1/me differs:\nservice  ${JSON.stringify(sMe.body)}\nbaseline ${JSON.stringify(bMe.body)}`);
  }
  const path = ALL_TARGETS[1].path;
  const [sNet, bNet] = await Promise.all([call(`${service.url}${path}`, token), call(`${baseline.url}${path}`, token)]);
  if (sNet.status !== 200 || bNet.status !== 200) throw new Error(`${path}: service ${sNet.status}, baseline ${bNet.status}`);
  type Page = { items: unknown[]; next_cursor: string | null };
  const s = sNet.body as Page;
  const b = bNet.body as Page;
  const expected = Math.min(50, networkCount);
  if (s.items.length !== expected) throw new Error(`${path} returned ${s.items.length} items, expected ${expected}`);
  // Cursors are MACed with different keys; both must be present (or absent) together.
  if (!isDeepStrictEqual(s.items, b.items) || (s.next_cursor === null) !== (b.next_cursor === null)) {
    throw new Error(`${path} differs between service and baseline`);
  }
}

/** Both servers create the same campaign and settle the Idempotency-Key with the stored response. */
export async function checkSameCampaign(
  service: Child,
  baseline: Child,
  token: string,
  networkId: string,
  advertiserId: string,
  db: postgres.Sql,
): Promise<void> {
  await checkSameCreation(service, baseline, token, `/v1/networks/${networkId}/campaigns`, CAMPAIGN_BODY(advertiserId), db);
}

/** Both servers create the same network (super_user key) and settle the Idempotency-Key likewise. */
export async function checkSameNetwork(service: Child, baseline: Child, superToken: string, db: postgres.Sql): Promise<void> {
  await checkSameCreation(service, baseline, superToken, '/v1/networks', networkRequests(superToken)[0]!.body!, db);
}

/** One POST with a new Idempotency-Key to each server: the same 201 (ids and times aside), a sealed `done` key, and the service replays it. */
async function checkSameCreation(service: Child, baseline: Child, token: string, path: string, body: string, db: postgres.Sql): Promise<void> {
  const post = (child: Child, key: string) =>
    call(`${child.url}${path}`, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body,
    });
  const keys = { service: `check-service-${randomBytes(8).toString('hex')}`, baseline: `check-baseline-${randomBytes(8).toString('hex')}` };
  const [s, b] = [await post(service, keys.service), await post(baseline, keys.baseline)];
  if (s.status !== 201 || b.status !== 201)
    throw new Error(`POST ${path}: service ${s.status}, baseline ${b.status}: ${JSON.stringify(s.body)} ${JSON.stringify(b.body)}`);
  const strip = (body: unknown) => {
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = body as Record<string, unknown>;
    return rest;
  };
  if (!isDeepStrictEqual(strip(s.body), strip(b.body))) {
    throw new Error(`POST ${path} differs:\nservice  ${JSON.stringify(s.body)}\nbaseline ${JSON.stringify(b.body)}`);
  }
  const rows = await db<Array<{ key: string; state: string; response_status: number | null; sealed: boolean }>>`
    select key, state, response_status, (response_body #>> '{}') like 'v1.%' as sealed
    from idempotency_keys where key in ${db([keys.service, keys.baseline])}`;
  for (const [name, key] of Object.entries(keys)) {
    const row = rows.find((r) => r.key === key);
    if (!row || row.state !== 'done' || row.response_status !== 201 || !row.sealed) {
      throw new Error(`${name} did not store its sealed response on the Idempotency-Key: ${JSON.stringify(row)}`);
    }
  }
  const replay = await post(service, keys.service);
  if (replay.status !== 201 || !isDeepStrictEqual(replay.body, s.body))
    throw new Error(`the service did not replay the stored response: ${replay.status}`);
}

/** What a target's load sends: its key's token, and for a POST a new Idempotency-Key per request. */
export function loadSpecFor(target: Target, seeded: Seed): LoadSpec {
  const token = target.key === 'super' ? seeded.superToken : seeded.token;
  if (target.id === 'campaigns') return { path: '/', token, requests: campaignRequests(token, seeded.networkIds, seeded.advertiserIds) };
  if (target.id === 'networks-post-su') return { path: '/', token, requests: networkRequests(token) };
  return { path: target.path, token };
}

/**
 * The measured runs, every target in turn; `onRun` sees each run as it ends (the memory readings).
 */
export async function runThroughput(servers: Record<ServerName, Child>, seeded: Seed, onRun: (r: RunResult) => void): Promise<RunResult[]> {
  const runs: RunResult[] = [];
  for (const target of TARGETS) {
    const spec = loadSpecFor(target, seeded);
    for (const name of ['service', 'baseline'] as const) {
      log(`${target.title}: warm-up ${name} ${settings.warmup} s`);
      await load(servers[name], spec, settings.warmup);
    }
    for (let round = 1; round <= settings.runs; round++) {
      const order: ServerName[] = round % 2 === 1 ? ['service', 'baseline'] : ['baseline', 'service'];
      for (const name of order) {
        await sleep(1_000);
        const r = await load(servers[name], spec, settings.duration);
        const run: RunResult = { server: name, target: target.id, round, ...r };
        runs.push(run);
        onRun(run);
        log(
          `${target.title} round ${round} ${name.padEnd(8)}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms, ` +
            `server CPU ${fmtInt(r.serverCpuUsPerReq)} µs/req, Postgres CPU ${fmtInt(r.pgCpuUsPerReq)} µs/req, client CPU ${Math.round(r.clientCpuPct)} %, other ${Math.round(r.otherCpuPct)} %, RSS ${fmtMiB(r.rssAfterKiB)} MiB, syscalls/req ${r.readsPerReq.toFixed(2)} read + ${r.writesPerReq.toFixed(2)} write` +
            (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''),
        );
      }
    }
  }
  return runs;
}

export interface Summary {
  target: Target;
  per: Record<
    ServerName,
    { rpsMedian: number; rpsMin: number; rpsMax: number; p50: number; p99: number; cpuUs: number; pgCpuUs: number; failures: number }
  >;
  throughputRatio: number;
  p99Ratio: number;
  throughputMet: boolean;
  p99Met: boolean;
  valid: boolean;
}

export function summarize(runs: RunResult[]): Summary[] {
  return TARGETS.map((target) => {
    const pick = (server: ServerName) => {
      const rs = runs.filter((r) => r.target === target.id && r.server === server);
      const rps = rs.map((r) => r.rps);
      return {
        rpsMedian: median(rps),
        rpsMin: Math.min(...rps),
        rpsMax: Math.max(...rps),
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        cpuUs: median(rs.map((r) => r.serverCpuUsPerReq)),
        pgCpuUs: median(rs.map((r) => r.pgCpuUsPerReq)),
        failures: rs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
      };
    };
    const per = { service: pick('service'), baseline: pick('baseline') };
    const throughputRatio = per.service.rpsMedian / per.baseline.rpsMedian;
    const p99Ratio = per.service.p99 / per.baseline.p99;
    return {
      target,
      per,
      throughputRatio,
      p99Ratio,
      throughputMet: throughputRatio >= throughputTarget(target),
      p99Met: p99Ratio <= P99_TARGET,
      valid: per.service.failures === 0 && per.baseline.failures === 0,
    };
  });
}

export function summaryLogLine(s: Summary): string {
  const a = s.per.service;
  const b = s.per.baseline;
  return (
    `${s.target.title}: service ${fmtInt(a.rpsMedian)} req/s p50 ${fmtMs(a.p50)} p99 ${fmtMs(a.p99)} ms | ` +
    `baseline ${fmtInt(b.rpsMedian)} req/s p50 ${fmtMs(b.p50)} p99 ${fmtMs(b.p99)} ms | ` +
    `throughput ${s.throughputRatio.toFixed(2)}× (${s.throughputMet ? 'met' : 'MISSED'}), p99 ${s.p99Ratio.toFixed(2)}× (${s.p99Met ? 'met' : 'MISSED'})` +
    (s.valid ? '' : ' INVALID (errors/non-2xx)')
  );
}
