/**
 * Noisy neighbour benchmark (issue 33; docs/SECURITY.md invariant 9, "no tenant can slow another"):
 * network B's latencies alone, and while network A does each of
 *
 *   previews     BENCH_NOISY_PREVIEWS (150) previews in flight at once from a read_only key of A
 *   batches      BENCH_NOISY_BATCHES (10) console batches in flight, each BENCH_NOISY_BATCH_CALLS
 *                (2,000) calls (`GET /api/trpc/me.get,me.get,…?batch=1`; refused when the
 *                transport caps batches — B is measured either way)
 *   minted-keys  requests from BENCH_NOISY_KEYS (20) freshly minted keys of A, 4 in flight per key
 *   hanging      BENCH_NOISY_HOOKS (40) subscriptions of A to an endpoint that never answers, with
 *                BENCH_NOISY_HOOK_EVENTS (5) events each queued for them
 *
 * What is measured of B, in each phase (BENCH_NOISY_SECONDS, 10 s, after 1 s of the attack alone; in
 * BENCH_NOISY_ROUNDS (3) rounds, each B alone and then attacked, their samples pooled):
 * `GET /v1/me` at BENCH_NOISY_ME_RATE (100) requests/s, open loop (p50, p99); previews one after
 * another (median, max); one offer accepted → its creative synthesized, `pending_approval` (polled
 * every 100 ms; the host of each network's podcast granted their voice first); and that accept's
 * `offer.accepted` delivery: answer of the accept → receipt at B's endpoint.
 * Targets while A attacks: /v1/me p99 ≤ 2 × B alone just before the attack, preview < 3 s, creative ready < alone + 5 s,
 * delivery < 2 s.
 *
 * Real pieces only: the service as `npm start` runs it (web + worker, the local voice engine) with
 * WEBHOOK_ALLOW_PRIVATE=1 and the default rate limits (per key 100/s, burst 200; per owner 200/s,
 * 400; per network 500/s, 1,000: attackers meet the limits a user would); B's endpoint and A's hanging one are a node:http server here. A's
 * traffic comes from a child process (this file, NOISY_ATTACK set), so that its event loop is not
 * the one timing B, at CPU priority nice BENCH_NOISY_ATTACKER_NICE (19): an attacker is a client on
 * another machine, and its own CPU is not a resource the service shares.
 *
 * Usable from run.ts (`runNoisyNeighbour` + `noisyLogLine` + `renderNoisySection`), or alone:
 *   node --import tsx scripts/bench/scenarios/noisy-neighbour.ts     # fresh database, own service;
 *                                   # prints, and writes its section of docs/PERFORMANCE.md
 *   BENCH_QUICK=1 node --import tsx scripts/bench/scenarios/noisy-neighbour.ts   # shorter, writes nothing
 *   BENCH_REPORT=- …                # full length, writes nothing
 * Settings: settings.ts `noisy` (BENCH_NOISY_*), BENCH_PG_URL, BENCH_START_TIMEOUT.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { api, call, grantVoiceConsent, type Api } from '@/scripts/bench/api';
import { fmtInt, log, verdict } from '@/scripts/bench/format';
import { loadAverage } from '@/scripts/bench/proc';
import { startFakeVendor } from '@/scripts/bench/creative-overhead';
import { onFreshDatabase, serviceEnvironment, startBenchEndpoint } from '@/scripts/bench/services';
import { noisy, type NoisySettings, root, settings } from '@/scripts/bench/settings';
import { median, percentile } from '@/scripts/bench/stats';
import { measuredAlone, reportAlone, writeSectionAlone } from '@/scripts/bench/report';
import { generateApiKeyToken } from '@/server/auth/tokens';

export const NOISY_SECTION_TITLE = '## Noisy neighbours (scripts/bench/scenarios/noisy-neighbour.ts)';
export const NOISY_TARGETS = { meP99Ratio: 2, previewMs: 3_000, creativeExtraMs: 5_000, deliveryMs: 2_000 };

/**
 * The service's settings for this scenario: the default rate limits, per key, owner and network (the
 * benchmark's other runs lift them). A's BENCH_NOISY_HOOKS (40) hanging subscriptions are twice the
 * default quota of a network (20): the quota is lifted to that, so the worker's fairness is measured
 * against more than one network may have.
 */
export const NOISY_SERVICE_ENV = {
  WEBHOOK_ALLOW_PRIVATE: '1',
  RATE_LIMIT_PER_SECOND: '100',
  RATE_LIMIT_BURST: '200',
  RATE_LIMIT_OWNER_PER_SECOND: '200',
  RATE_LIMIT_OWNER_BURST: '400',
  RATE_LIMIT_NETWORK_PER_SECOND: '500',
  RATE_LIMIT_NETWORK_BURST: '1000',
  QUOTA_WEBHOOKS_PER_NETWORK: String(Math.max(20, noisy.hooks)),
};

export type AttackName = 'previews' | 'batches' | 'minted-keys' | 'hanging';

export interface MeLatency {
  n: number;
  failed: number;
  p50: number;
  p99: number;
}

export interface PhaseResult {
  phase: 'alone' | AttackName;
  me: MeLatency;
  /** B's `/v1/me` alone just before this attack: the baseline its p99 is judged against (noise drifts). */
  meBefore?: MeLatency;
  previewsMs: number[];
  previewStatuses: Record<string, number>;
  creativeMs: number;
  deliveryMs: number;
  /** A's requests during the phase, by answer (`error` when none came). */
  attacker?: { requests: number; statuses: Record<string, number> };
}

export interface NoisyResult {
  /** The voice provider the service ran with. */
  synth: 'local' | 'http';
  settings: NoisySettings;
  phases: PhaseResult[];
  loadBefore: string;
}

// ---------------------------------------------------------------- the attacker (child process)

interface AttackSpec {
  baseUrl: string;
  kind: Exclude<AttackName, 'hanging'>;
  seconds: number;
  /** previews: A's read_only key; batches: A's administrator key; minted-keys: every minted key. */
  tokens: string[];
  /** The request each loop sends. */
  path: string;
  method: 'GET' | 'POST';
  body?: unknown;
  inFlight: number;
}

/** Keeps `inFlight` requests going for `seconds` and prints what came back, as one JSON line. */
async function attack(spec: AttackSpec): Promise<void> {
  const statuses: Record<string, number> = {};
  let requests = 0;
  const until = performance.now() + spec.seconds * 1000;
  const loop = async (i: number) => {
    const token = spec.tokens[i % spec.tokens.length]!;
    while (performance.now() < until) {
      requests++;
      try {
        const res = await fetch(`${spec.baseUrl}${spec.path}`, {
          method: spec.method,
          headers: { authorization: `Bearer ${token}`, ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
        await sleep(10);
      }
    }
  };
  await Promise.all(Array.from({ length: spec.inFlight }, (_, i) => loop(i)));
  // Exit at once: kept-alive connections would hold the process open.
  process.stdout.write(`${JSON.stringify({ requests, statuses })}\n`, () => process.exit(0));
}

/** Runs `spec` in a child process; resolves with its counts once it ends. */
function startAttack(spec: AttackSpec): Promise<NonNullable<PhaseResult['attacker']>> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: root,
    env: { ...process.env, NOISY_ATTACK: JSON.stringify(spec) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (noisy.attackerNice > 0 && child.pid) os.setPriority(child.pid, noisy.attackerNice);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) return reject(new Error(`the ${spec.kind} attacker exited with ${code}`));
      resolve(JSON.parse(line) as NonNullable<PhaseResult['attacker']>);
    });
  });
}

// ---------------------------------------------------------------- B's endpoint and A's hanging one

/** B's endpoint (`/b`), noting the first receipt of each offer's offer.accepted (offer_id → performance.now()), and A's hanging one (`/hang/…`). */
async function startReceiver() {
  const accepted = new Map<string, number>();
  const endpoint = await startBenchEndpoint((body, at) => {
    const envelope = body as { type: string; data: { offer_id?: string } };
    if (envelope.type === 'offer.accepted' && envelope.data.offer_id && !accepted.has(envelope.data.offer_id))
      accepted.set(envelope.data.offer_id, at);
  });
  return { ...endpoint, accepted };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

// ---------------------------------------------------------------- the two networks

const SCRIPT =
  'Sleep better tonight with Acme mattresses, designed by sleep scientists for people who fall asleep to podcasts. ' +
  'Use the code POD for twenty percent off your first order.';

interface AdNetwork {
  id: string;
  campaignId: string;
  podcastId: string;
}

async function adNetwork(su: Api, name: string): Promise<AdNetwork> {
  const { id } = await api<{ id: string }>(su, 'POST', '/networks', { name });
  const advertiser = await api<{ id: string }>(su, 'POST', `/networks/${id}/advertisers`, { name: 'Acme' });
  const campaign = await api<{ id: string }>(su, 'POST', `/networks/${id}/campaigns`, {
    name: 'Sleep',
    advertiser_id: advertiser.id,
    script: SCRIPT,
    status: 'active',
  });
  const podcast = await api<{ id: string }>(su, 'POST', `/networks/${id}/podcasts`, { name: 'Night shift', host_name: 'Sam' });
  await api(su, 'POST', `/networks/${id}/podcasts/${podcast.id}/opt-in`);
  // The host's voice for every campaign: an accepted offer's creative is synthesized at once.
  await grantVoiceConsent(su, id, podcast.id);
  return { id, campaignId: campaign.id, podcastId: podcast.id };
}

async function serviceAccountKey(su: Api, networkId: string, name: string, role: 'read_only' | 'administrator') {
  const created = await api<{ id: string; api_key: { token: string } }>(su, 'POST', `/networks/${networkId}/service-accounts`, { name, role });
  return { accountId: created.id, token: created.api_key.token };
}

// ---------------------------------------------------------------- measuring B

/** B's `/v1/me` latencies (ms) and failures over one stretch of time, and when each was sent (ms after its start). */
interface MeSamples {
  latencies: number[];
  sentAt: number[];
  failed: number;
}

/** Percentiles of the samples of one or more stretches, pooled. */
function meLatency(samples: MeSamples[]): MeLatency {
  const latencies = samples.flatMap((x) => x.latencies).sort((x, y) => x - y);
  const failed = samples.reduce((sum, x) => sum + x.failed, 0);
  return { n: latencies.length, failed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function measureMe(b: Api, rate: number, seconds: number): Promise<MeSamples> {
  const latencies: number[] = [];
  const sentAt: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    const started = performance.now();
    pending.push(
      call(`${b.baseUrl}/v1/me`, b.token).then(
        ({ status }) => {
          if (status !== 200) return void failed++;
          latencies.push(performance.now() - started);
          sentAt.push(started - t0);
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(pending);
  return { latencies, sentAt, failed };
}

/** BENCH_NOISY_TRACE: B's `/v1/me` samples of one phase, one JSON line each. */
function trace(
  file: string | undefined,
  what: { synth: string; phase: string },
  sides: Array<{ side: 'alone' | 'attacked'; rounds: BMeasurement[] }>,
): void {
  if (!file) return;
  const lines = sides.flatMap(({ side, rounds }) =>
    rounds.flatMap((r, round) =>
      r.me.latencies.map((ms, i) => JSON.stringify({ ...what, round, side, at: Math.round(r.me.sentAt[i]!), ms: Number(ms.toFixed(2)) })),
    ),
  );
  appendFileSync(file, lines.join('\n') + '\n');
}

async function measurePreviews(b: Api, net: AdNetwork, until: number) {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  while (performance.now() < until) {
    const started = performance.now();
    const { status } = await call(`${b.baseUrl}/v1/networks/${net.id}/campaigns/${net.campaignId}/preview`, b.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ podcast_id: net.podcastId }),
    });
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 200) times.push(performance.now() - started);
    else await sleep(200);
  }
  return { times, statuses };
}

/** Accept a new offer of B: ms until its creative is ready (synthesized: pending approval), and until its offer.accepted reached B's endpoint. */
async function measureAccept(b: Api, net: AdNetwork, receiver: Receiver, timeoutMs: number) {
  const offer = await api<{ id: string }>(b, 'POST', `/networks/${net.id}/offers`, { campaign_id: net.campaignId, podcast_id: net.podcastId });
  const started = performance.now();
  const accepted = await api<{ creative_id: string }>(b, 'POST', `/networks/${net.id}/offers/${offer.id}/accept`);
  const answered = performance.now();
  let creativeMs = Number.NaN;
  while (performance.now() - started < timeoutMs) {
    const creative = await api<{ status: string }>(b, 'GET', `/networks/${net.id}/creatives/${accepted.creative_id}`);
    if (creative.status !== 'generating') {
      if (creative.status === 'pending_approval') creativeMs = performance.now() - started;
      break;
    }
    await sleep(100);
  }
  while (!receiver.accepted.has(offer.id) && performance.now() - answered < timeoutMs) await sleep(20);
  const receivedAt = receiver.accepted.get(offer.id);
  return { creativeMs, deliveryMs: receivedAt === undefined ? Number.NaN : receivedAt - answered };
}

/** B's measurements over one phase (whatever A is doing meanwhile). */
/** B's two integrations: one probes `/v1/me`, the other works (previews, offers), each within its own key's and owner's budget. */
interface BClients {
  probe: Api;
  work: Api;
}

async function measureB({ probe, work: b }: BClients, net: AdNetwork, receiver: Receiver, s: NoisySettings, seconds = s.seconds) {
  const until = performance.now() + seconds * 1000;
  const [me, previews, accept] = await Promise.all([
    measureMe(probe, s.meRate, seconds),
    measurePreviews(b, net, until),
    sleep(500).then(() => measureAccept(b, net, receiver, Math.max(60_000, seconds * 1000))),
  ]);
  return { me, previewsMs: previews.times, previewStatuses: previews.statuses, ...accept };
}

type BMeasurement = Awaited<ReturnType<typeof measureB>>;

/** Rounds of one phase as one: `/v1/me` pooled, previews together, the slowest creative and delivery. */
function pooled(rounds: BMeasurement[]): Omit<PhaseResult, 'phase'> {
  const statuses: Record<string, number> = {};
  for (const r of rounds) for (const [status, n] of Object.entries(r.previewStatuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    me: meLatency(rounds.map((r) => r.me)),
    previewsMs: rounds.flatMap((r) => r.previewsMs),
    previewStatuses: statuses,
    creativeMs: Math.max(...rounds.map((r) => r.creativeMs)),
    deliveryMs: Math.max(...rounds.map((r) => r.deliveryMs)),
  };
}

// ---------------------------------------------------------------- the run

/**
 * Starts the scenario's service with `start`: NOISY_SERVICE_ENV and the voice provider `synth` (for
 * `http`, the fake vendor of creative-overhead.ts, answering in `vendorDelayMs`). `close` stops the
 * vendor once the service is stopped.
 */
export async function withNoisyService<T>(
  synth: 'local' | 'http',
  vendorDelayMs: number,
  start: (env: Record<string, string>, what: string) => Promise<T>,
): Promise<{ service: T; close: () => Promise<void> }> {
  if (synth === 'local') return { service: await start(NOISY_SERVICE_ENV, 'the local voice engine'), close: async () => {} };
  const vendor = await startFakeVendor(vendorDelayMs);
  try {
    const env = {
      ...NOISY_SERVICE_ENV,
      SYNTH_PROVIDER: 'http',
      SYNTH_TEST_NETWORKS: 'provider',
      SYNTH_BASE_URL: vendor.url,
      SYNTH_API_KEY: 'bench',
      SYNTH_MAX_RETRIES: '0',
    };
    return { service: await start(env, `SYNTH_PROVIDER=http, a fake vendor answering in ${vendorDelayMs} ms`), close: () => vendor.close() };
  } catch (error) {
    await vendor.close();
    throw error;
  }
}

/** Run against a started service (with NOISY_SERVICE_ENV and voice provider `synth`) as its super_user `su`. */
export async function runNoisyNeighbour(
  su: Api,
  s: NoisySettings,
  synth: 'local' | 'http',
  opts: { log: (msg: string) => void },
): Promise<NoisyResult> {
  const loadBefore = loadAverage();
  const receiver = await startReceiver();
  try {
    const a = await adNetwork(su, `Noisy A ${randomBytes(2).toString('hex')}`);
    const bNet = await adNetwork(su, `Quiet B ${randomBytes(2).toString('hex')}`);
    await api(su, 'POST', `/networks/${bNet.id}/webhooks`, { url: `${receiver.url}/b`, events: ['offer.accepted'] });
    const b: BClients = {
      work: { baseUrl: su.baseUrl, token: (await serviceAccountKey(su, bNet.id, 'B integration', 'administrator')).token },
      probe: { baseUrl: su.baseUrl, token: (await serviceAccountKey(su, bNet.id, 'B monitor', 'read_only')).token },
    };
    const aReader = await serviceAccountKey(su, a.id, 'A listener', 'read_only');
    const aAdmin = await serviceAccountKey(su, a.id, 'A integration', 'administrator');
    // Minted before any phase (by the operator: A's own key may be out of budget after a phase).
    const minted: string[] = [];
    for (let i = 0; i < s.keys; i++) {
      minted.push(
        (await api<{ token: string }>(su, 'POST', `/networks/${a.id}/service-accounts/${aAdmin.accountId}/keys`, { key_name: `minted ${i}` })).token,
      );
    }

    // Warm-up (not counted): the voice engine starts, the creative path and the delivery run once.
    await measurePreviews(b.work, bNet, performance.now() + 1);
    await measureAccept(b.work, bNet, receiver, 60_000);

    const phases: PhaseResult[] = [];
    phases.push({ phase: 'alone', ...pooled([await measureB(b, bNet, receiver, s)]) });
    opts.log(noisyPhaseLine(phases.at(-1)!, synth));

    for (const kind of s.attacks) {
      let attacker: PhaseResult['attacker'];
      // On a shared machine B's p99 drifts by 2× and more between quiet spells: each attack is judged
      // against B alone just before it (B's whole load, as during the attack), in interleaved rounds
      // (BENCH_NOISY_ROUNDS) whose samples are pooled, not only against the first phase.
      const aloneRounds: BMeasurement[] = [];
      const attackedRounds: BMeasurement[] = [];
      if (kind === 'hanging') {
        // One round: A's backlog cannot be switched off and on.
        aloneRounds.push(await measureB(b, bNet, receiver, s));
        // A's endpoints hang; its events are queued before B is measured.
        const before = receiver.hanging.requests;
        const hooks: string[] = [];
        for (let i = 0; i < s.hooks; i++) {
          hooks.push(
            (await api<{ id: string }>(su, 'POST', `/networks/${a.id}/webhooks`, { url: `${receiver.url}/hang/${i}`, events: ['optin.completed'] }))
              .id,
          );
        }
        const aAdminApi = { baseUrl: su.baseUrl, token: aAdmin.token };
        for (let i = 0; i < s.hookEvents; i++) {
          const podcast = await api<{ id: string }>(aAdminApi, 'POST', `/networks/${a.id}/podcasts`, { name: `Hang ${i}`, host_name: 'Sam' });
          await api(aAdminApi, 'POST', `/networks/${a.id}/podcasts/${podcast.id}/opt-in`);
        }
        await sleep(1_000);
        attackedRounds.push(await measureB(b, bNet, receiver, s));
        attacker = { requests: receiver.hanging.requests - before, statuses: { 'held open at most at once': receiver.hanging.maxOpen } };
        // Later runs must not inherit A's backlog: its subscriptions go (pending deliveries end as failed).
        for (const id of hooks) await api(su, 'DELETE', `/networks/${a.id}/webhooks/${id}`);
      } else {
        const roundSeconds = s.seconds / s.rounds;
        const spec = attackSpec(kind, su, a, { readOnly: aReader.token, admin: aAdmin.token, minted }, s, roundSeconds);
        attacker = { requests: 0, statuses: {} };
        for (let round = 0; round < s.rounds; round++) {
          aloneRounds.push(await measureB(b, bNet, receiver, s, roundSeconds));
          const running = startAttack(spec);
          await sleep(1_000);
          attackedRounds.push(await measureB(b, bNet, receiver, s, roundSeconds));
          const done = await running;
          attacker.requests += done.requests;
          for (const [status, n] of Object.entries(done.statuses)) attacker.statuses[status] = (attacker.statuses[status] ?? 0) + n;
        }
      }
      trace(s.trace, { synth, phase: kind }, [
        { side: 'alone', rounds: aloneRounds },
        { side: 'attacked', rounds: attackedRounds },
      ]);
      phases.push({ phase: kind, ...pooled(attackedRounds), meBefore: pooled(aloneRounds).me, attacker });
      opts.log(noisyPhaseLine(phases.at(-1)!, synth));
    }
    return { synth, settings: s, phases, loadBefore };
  } finally {
    await receiver.close();
  }
}

function attackSpec(
  kind: Exclude<AttackName, 'hanging'>,
  su: Api,
  a: AdNetwork,
  tokens: { readOnly: string; admin: string; minted: string[] },
  s: NoisySettings,
  seconds: number,
): AttackSpec {
  const base = { baseUrl: su.baseUrl, kind, seconds: seconds + 1.5 };
  switch (kind) {
    case 'previews':
      return {
        ...base,
        tokens: [tokens.readOnly],
        method: 'POST',
        path: `/v1/networks/${a.id}/campaigns/${a.campaignId}/preview`,
        body: { podcast_id: a.podcastId },
        inFlight: s.previews,
      };
    case 'batches':
      return {
        ...base,
        tokens: [tokens.admin],
        method: 'GET',
        path: `/api/trpc/${Array.from({ length: s.batchCalls }, () => 'me.get').join(',')}?batch=1`,
        inFlight: s.batches,
      };
    case 'minted-keys':
      return { ...base, tokens: tokens.minted, method: 'GET', path: `/v1/networks/${a.id}/campaigns?limit=50`, inFlight: tokens.minted.length * 4 };
  }
}

// ---------------------------------------------------------------- verdicts and the report

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const maxOf = (values: number[]) => (values.length ? Math.max(...values) : Number.NaN);

export interface PhaseVerdict {
  me: boolean;
  preview: boolean;
  creative: boolean;
  delivery: boolean;
}

export function phaseVerdict(phase: PhaseResult, alone: PhaseResult): PhaseVerdict {
  return {
    me: phase.me.failed === 0 && phase.me.p99 <= NOISY_TARGETS.meP99Ratio * (phase.meBefore ?? alone.me).p99,
    preview: phase.previewsMs.length > 0 && maxOf(phase.previewsMs) < NOISY_TARGETS.previewMs,
    creative: phase.creativeMs < alone.creativeMs + NOISY_TARGETS.creativeExtraMs,
    delivery: phase.deliveryMs < NOISY_TARGETS.deliveryMs,
  };
}

export function noisyMet(r: NoisyResult): boolean {
  const alone = r.phases.find((p) => p.phase === 'alone')!;
  return r.phases.filter((p) => p.phase !== 'alone').every((p) => Object.values(phaseVerdict(p, alone)).every(Boolean));
}

const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, n]) => `${status}: ${fmtInt(n)}`)
    .join(', ');

function noisyPhaseLine(p: PhaseResult, synth: NoisyResult['synth']): string {
  return (
    `noisy neighbour (${synth} voice), ${p.phase}: B /v1/me p50 ${fmt(p.me.p50)} / p99 ${fmt(p.me.p99)} ms (${p.me.failed} failed` +
    (p.meBefore ? `; alone just before: ${fmt(p.meBefore.p50)} / ${fmt(p.meBefore.p99)} ms), ` : '), ') +
    `preview median ${fmt(median(p.previewsMs))} / max ${fmt(maxOf(p.previewsMs))} ms (${statusList(p.previewStatuses)}), ` +
    `creative ready ${fmt(p.creativeMs)} ms, offer.accepted delivered ${fmt(p.deliveryMs)} ms` +
    (p.attacker ? `; A: ${fmtInt(p.attacker.requests)} requests (${statusList(p.attacker.statuses)})` : '')
  );
}

export function noisyLogLine(r: NoisyResult): string {
  return (
    r.phases.map((p) => noisyPhaseLine(p, r.synth)).join('\n[bench] ') +
    `\n[bench] noisy neighbour (${r.synth} voice) targets: ${noisyMet(r) ? 'met' : 'MISSED'}`
  );
}

const SYNTH_WORDS: Record<NoisyResult['synth'], (vendorDelayMs: number) => string> = {
  local: () => "With the local voice engine (`SYNTH_PROVIDER=local`, the default: synthesis on the web and worker processes' own CPU)",
  http: (ms) => `With a voice vendor (\`SYNTH_PROVIDER=http\`, as a deployment runs: a fake vendor answering each call in ${fmtInt(ms)} ms)`,
};

const ATTACK_WORDS: Record<PhaseResult['phase'], (s: NoisySettings) => string> = {
  alone: () => 'alone',
  previews: (s) => `${s.previews} previews in flight (A's read_only key)`,
  batches: (s) => `${s.batches} console batches of ${fmtInt(s.batchCalls)} calls in flight`,
  'minted-keys': (s) => `${s.keys} freshly minted keys, 4 requests in flight each`,
  hanging: (s) => `${s.hooks} hanging subscriptions, ${s.hookEvents} events each queued`,
};

export function renderNoisySection(
  results: NoisyResult[] | undefined,
  info: { error?: string; command: string; date: string; machine: string; vendorDelayMs: number },
): string[] {
  const lines = [NOISY_SECTION_TITLE, ''];
  if (!results?.length || info.error) return [...lines, `Not measured: ${info.error ?? 'skipped'}.`, ''];
  const s = results[0]!.settings;
  return [
    ...lines,
    `Measured ${info.date} with \`${info.command}\` on ${info.machine}; load average before: ${results.map((r) => r.loadBefore).join(', then ')}.`,
    '',
    `Targets while A attacks: B's \`GET /v1/me\` p99 ≤ ${NOISY_TARGETS.meP99Ratio} × B's alone just before the attack (in brackets), preview < ${fmtInt(NOISY_TARGETS.previewMs)} ms, creative ready < alone + ${fmtInt(NOISY_TARGETS.creativeExtraMs)} ms, \`offer.accepted\` delivered < ${fmtInt(NOISY_TARGETS.deliveryMs)} ms (✗ marks a miss).`,
    '',
    ...results.flatMap((r) => [`${SYNTH_WORDS[r.synth](info.vendorDelayMs)}: ${verdict(noisyMet(r))}.`, '', ...noisyTable(r), '']),
    `- **Setup**: the service as \`npm start\` runs it (web + worker), one service per voice provider, with \`WEBHOOK_ALLOW_PRIVATE=1\` and the default rate limits (per key 100/s, burst 200; per owner 200/s, 400; per network 500/s, 1,000), the webhook quota lifted to ${Math.max(20, s.hooks)} for A's hanging subscriptions. Each phase, in ${s.rounds} rounds (one for the hanging endpoints, whose backlog cannot be switched off and on) whose samples are pooled: B is measured alone for ${fmt(s.seconds / s.rounds)} s, then A's attack starts and 1 s later B is measured again for as long: \`GET /v1/me\` at ${s.meRate}/s (open loop, a read_only key of its own, so that B stays within its budgets), previews one after another, and one offer accepted (creative polled every 100 ms; delivery = accept answered → receipt at B's endpoint). A's traffic comes from a child process${s.attackerNice > 0 ? ` at CPU priority nice ${s.attackerNice} (BENCH_NOISY_ATTACKER_NICE), standing for a client on another machine: on these 2 cores an attacker at the service's own priority takes up to a core from it and Postgres, which is the machine's cost, not the service's` : " at the service's own CPU priority (BENCH_NOISY_ATTACKER_NICE=0)"}; its hanging endpoint and B's endpoint are a node:http server in the benchmark.`,
    "- **What bounds A** (issue 33): previews are admitted per network (PREVIEW_CONCURRENCY_PER_NETWORK, PREVIEW_QUEUE_PER_NETWORK; past them 429), refusals are paced (a 429 waits in its bucket's line, at most REFUSAL_HOLD_MS, so a client retrying in a loop sends about as many as its bucket admits), the voice engine serves creatives before previews and networks in turn, the worker gives one network at most WORKER_NETWORK_SHARE of its delivery slots and of its synthesis slots, and synthesis has a pool of its own. Requests spend from budgets per key, per owner and per network, and console batches are capped. What no per-network bound shares out is the machine's CPU: with the local engine, A's admitted previews keep a core synthesizing.",
    '',
  ];
}

function noisyTable(r: NoisyResult): string[] {
  const alone = r.phases.find((p) => p.phase === 'alone')!;
  const s = r.settings;
  const rows = r.phases.map((p) => {
    const v = p.phase === 'alone' ? undefined : phaseVerdict(p, alone);
    const mark = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? '' : ' ✗');
    return (
      `| ${ATTACK_WORDS[p.phase](s)} | ${fmt(p.me.p50)} / ${fmt(p.me.p99)}${mark(v?.me)}${p.meBefore ? ` (${fmt(p.meBefore.p50)} / ${fmt(p.meBefore.p99)})` : ''} | ${fmt(median(p.previewsMs))} / ${fmt(maxOf(p.previewsMs))}${mark(v?.preview)} ` +
      `| ${fmt(p.creativeMs)}${mark(v?.creative)} | ${fmt(p.deliveryMs)}${mark(v?.delivery)} | ${p.attacker ? `${fmtInt(p.attacker.requests)} (${statusList(p.attacker.statuses)})` : '—'} |`
    );
  });
  return [
    `| A does | B /v1/me p50 / p99 ms | B preview median / max ms | B accept → creative ready ms | B offer.accepted delivered ms | A's requests (answers) |`,
    '|---|---:|---:|---:|---:|---|',
    ...rows,
  ];
}

async function standalone(): Promise<void> {
  const report = reportAlone(settings.quick);
  await onFreshDatabase(settings.pgUrl, async ({ dbUrl, processes }) => {
    const token = generateApiKeyToken('test');
    const results: NoisyResult[] = [];
    for (const synth of noisy.synth) {
      const { service, close } = await withNoisyService(synth, settings.vendorDelayMs, (env, what) =>
        processes.start(`service-${synth}`, 'scripts/start.ts', serviceEnvironment(dbUrl, token, env), {
          what: `the service (${what})`,
          readyToken: token,
          timeoutMs: settings.startTimeoutMs,
        }),
      );
      try {
        results.push(await runNoisyNeighbour({ baseUrl: service.url, token }, noisy, synth, { log }));
      } finally {
        await processes.stop(service);
        await close();
      }
    }
    for (const result of results) log(noisyLogLine(result));
    if (report) {
      const measured = measuredAlone('node --import tsx scripts/bench/scenarios/noisy-neighbour.ts');
      writeSectionAlone(report, renderNoisySection(results, { ...measured, vendorDelayMs: settings.vendorDelayMs }), NOISY_SECTION_TITLE);
    }
    if (!results.every(noisyMet)) process.exitCode = 1;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const main = process.env.NOISY_ATTACK ? attack(JSON.parse(process.env.NOISY_ATTACK) as AttackSpec) : standalone();
  main.catch((error: unknown) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
