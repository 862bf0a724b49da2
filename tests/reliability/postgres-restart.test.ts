/**
 * Postgres restarted under load. The test runs a Postgres of its own (the same
 * embedded server `npm start` uses without DATABASE_URL, so it works as root),
 * starts the service on it as users do, keeps it busy with concurrent reads and
 * idempotent campaign POSTs, and restarts Postgres twice while requests are in
 * flight: once with a fast shutdown (SIGINT: sessions terminated with 57P01),
 * once with an immediate one (SIGQUIT: no checkpoint, crash recovery at start).
 *
 * Proven: every failed request is a clean 503 problem envelope with Retry-After,
 * none hangs, the process survives; it answers 2xx again within seconds of
 * Postgres being back; every 201 campaign exists exactly once and replays; every
 * POST that failed is retried with the same Idempotency-Key and runs exactly
 * once (5xx answers are not stored); the in-process worker delivers a webhook
 * after each restart.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@/db/embedded';
import { processAlive } from '@/scripts/process-alive';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { EVENT_DATA_EXAMPLES } from '@/domain/events';
import { recordEvent } from '@/server/services/events/record-event';
import { reportReliability } from '@/tests/support/reliability';
import { freePort, ROOT, startServerProcess, type ServerProcess } from '@/tests/support/server-process';
import { everyRequestBudget } from '@/tests/support/shared-limits';
import { waitFor } from '@/tests/support/until';
import { startWebhookReceiver } from '@/tests/support/webhook-receiver';

/** No request may take longer than this, outage or not. */
const REQUEST_BOUND_MS = 10_000;
/** The service must answer 2xx again within this long after Postgres is back. */
const RECOVERY_BOUND_MS = 5_000;
const LOOPS = 6;
const OUTAGE_MS = 3_000;

const token = generateApiKeyToken('test');
const dataDir = mkdtempSync(path.join(tmpdir(), 'ans-pg-restart-'));
let port = 0;
let pg: EmbeddedPostgres | undefined;
let server: ServerProcess | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
let secret = '';

const postgresLog = path.join(ROOT, 'test-results', 'postgres-restart-postgres.log');
const startPostgres = async () => {
  pg = await startEmbeddedPostgres({ dataDir, port, log: (line) => appendFileSync(postgresLog, `${new Date().toISOString()} ${line}\n`) });
  return pg;
};

beforeAll(async () => {
  rmSync(postgresLog, { force: true });
  port = await freePort();
  await startPostgres();
  receiver = await startWebhookReceiver(() => secret);
  server = await startServerProcess(
    {
      DATABASE_URL: pg!.url,
      BOOTSTRAP_SUPERUSER_TOKEN: token,
      WORKER: 'on',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCHEDULE: '0,0.5,1,1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: '2000',
      // The load is one key: neither its bucket nor its owner's may be what answers.
      ...everyRequestBudget('100000'),
    },
    path.join(ROOT, 'test-results', 'postgres-restart-server.log'),
  );
}, 200_000);

afterAll(async () => {
  await server?.stop();
  await pg?.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Op = 'me' | 'networks' | 'campaign';

interface Outcome {
  op: Op;
  start: number;
  end: number;
  /** HTTP status, or 0 when the connection failed or the bound was hit. */
  status: number;
  hang: boolean;
  networkError?: string;
  envelope: boolean;
  retryAfter: string | null;
  body: unknown;
  replayed: boolean;
  requestId?: string | null;
  idempotencyKey?: string;
  campaignName?: string;
}

const PROBLEM_KEYS = ['detail', 'status', 'title', 'type'];

/** One request with a hard time bound; classifies the answer. */
async function call(op: Op, method: string, url: string, body?: unknown, idempotencyKey?: string): Promise<Outcome> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const start = Date.now();
  const base = { op, start, idempotencyKey, campaignName: (body as { name?: string } | undefined)?.name };
  try {
    const res = await fetch(`${server!.url}/v1${url}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_BOUND_MS),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    let envelope = true;
    if (res.status >= 400) {
      const p = parsed as Record<string, unknown> | null;
      const keys =
        p && typeof p === 'object'
          ? Object.keys(p)
              .filter((k) => k !== 'errors')
              .sort()
          : [];
      envelope =
        (res.headers.get('content-type') ?? '').startsWith('application/problem+json') &&
        JSON.stringify(keys) === JSON.stringify(PROBLEM_KEYS) &&
        p!.status === res.status &&
        typeof p!.type === 'string' &&
        /\/errors\/[a-z-]+$/.test(p!.type);
    }
    return {
      ...base,
      end: Date.now(),
      status: res.status,
      hang: false,
      envelope,
      retryAfter: res.headers.get('retry-after'),
      body: parsed,
      replayed: res.headers.get('idempotent-replayed') === 'true',
      requestId: res.headers.get('request-id'),
    };
  } catch (error) {
    const hang = (error as Error).name === 'TimeoutError';
    return {
      ...base,
      end: Date.now(),
      status: 0,
      hang,
      networkError: hang ? undefined : String(error),
      envelope: false,
      retryAfter: null,
      body: undefined,
      replayed: false,
    };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function postmasterPid(): number {
  return Number.parseInt(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]!, 10);
}

describe('Postgres restarted under load', () => {
  it('fails in-flight requests cleanly, recovers within seconds, keeps every write exactly once', { timeout: 300_000 }, async () => {
    const post = <T>(url: string, body: unknown) => call('campaign', 'POST', url, body).then((o) => o.body as T);
    const networkId = (await post<{ id: string }>('/networks', { name: 'Restart' })).id;
    const advertiserId = (await post<{ id: string }>(`/networks/${networkId}/advertisers`, { name: 'Acme' })).id;
    const hook = await call('campaign', 'POST', `/networks/${networkId}/webhooks`, { url: receiver!.url, events: ['offer.accepted'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    secret = (hook.body as { secret: string }).secret;
    expect(networkId).toMatch(/^net_/);
    expect(advertiserId).toMatch(/^adv_/);

    // ---- steady load: LOOPS concurrent clients, each cycling through the three operations
    const outcomes: Outcome[] = [];
    let running = true;
    let seq = 0;
    const campaignBody = (name: string) => ({ name, advertiser_id: advertiserId, script: 'Acme: wake up happy.' });
    const loops = Array.from({ length: LOOPS }, async (_, loop) => {
      for (let i = loop; running; i++) {
        const op = (['me', 'networks', 'campaign'] as const)[i % 3]!;
        let o: Outcome;
        if (op === 'me') o = await call('me', 'GET', '/me');
        else if (op === 'networks') o = await call('networks', 'GET', '/networks?limit=50');
        else {
          const key = `restart-${process.pid}-${++seq}`;
          o = await call('campaign', 'POST', `/networks/${networkId}/campaigns`, campaignBody(key), key);
        }
        outcomes.push(o);
        await sleep(5);
      }
    });

    // The worker is alive: an event recorded now reaches the receiver.
    const db = () => connect(pg!.url, { max: 1 });
    const deliveries = async (label: string) => {
      const h = db();
      try {
        await h.db.transaction((tx) =>
          recordEvent({ tx, networkId, type: 'offer.accepted', data: { ...EVENT_DATA_EXAMPLES['offer.accepted'], offer_id: label } }),
        );
      } finally {
        await h.close();
      }
      const t0 = Date.now();
      await waitFor(() => receiver!.received.some((r) => r.verified && r.raw.toString().includes(label)), 60_000, `webhook ${label}`);
      return (Date.now() - t0) / 1000;
    };

    const firstSuccessAfter = (t: number, op: Op) =>
      outcomes.filter((o) => o.op === op && o.start >= t && o.status >= 200 && o.status < 300).sort((a, b) => a.end - b.end)[0];
    const recovered = (t: number) => (['me', 'networks', 'campaign'] as const).every((op) => firstSuccessAfter(t, op));

    await sleep(2_000);
    const webhookBefore = await deliveries('before-restart');

    const outages: Array<{ kind: string; down: number; up: number; recoverySeconds: number; webhookSeconds: number }> = [];
    for (const kind of ['fast', 'immediate'] as const) {
      const down = Date.now();
      if (kind === 'fast') {
        await pg!.stop(); // SIGINT: fast shutdown, sessions terminated (57P01)
      } else {
        const pid = postmasterPid();
        process.kill(pid, 'SIGQUIT'); // immediate shutdown: no checkpoint, crash recovery on start
        await waitFor(() => !processAlive(pid), 30_000, 'postgres to exit');
        await pg!.stop();
      }
      await sleep(OUTAGE_MS);
      await startPostgres();
      const up = Date.now();
      await waitFor(() => recovered(up), 30_000, `the service to answer 2xx after the ${kind} restart`);
      const recoverySeconds = Math.max(...(['me', 'networks', 'campaign'] as const).map((op) => firstSuccessAfter(up, op)!.end - up)) / 1000;
      const webhookSeconds = await deliveries(`after-${kind}-restart`);
      outages.push({ kind, down, up, recoverySeconds, webhookSeconds });
      await sleep(2_000);
    }
    running = false;
    await Promise.all(loops);

    // ---- (1) during the outages: clean 5xx only, no hang, no other answer, the process alive
    const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300);
    const fiveXX = failed.filter((o) => o.status >= 500);
    const nonEnvelope = failed.filter((o) => !o.envelope);
    const unexpected = failed.filter((o) => o.status !== 0 && o.status < 500);
    const hangs = outcomes.filter((o) => o.hang);
    const status500 = fiveXX.filter((o) => o.status === 500);
    const withoutRetryAfter = fiveXX.filter((o) => !o.retryAfter);
    writeFileSync(
      path.join(ROOT, 'test-results', 'postgres-restart-outcomes.json'),
      JSON.stringify({ outages, outcomes: failed.map((o) => ({ ...o, start: o.start - outages[0]!.down, end: o.end - outages[0]!.down })) }, null, 1),
    );
    const sample = (xs: Outcome[]) =>
      JSON.stringify(
        xs
          .slice(0, 5)
          .map(({ op, status, body, networkError, requestId, start, end }) => ({ op, status, body, networkError, requestId, start, end })),
      );
    expect(server!.child.exitCode, server!.output().slice(-3000)).toBeNull();
    expect(server!.child.signalCode).toBeNull();
    // Next's handler logs an uncaught exception and keeps the process alive: that is a crash all the same.
    const uncaught = server!.output().match(/.*(uncaughtException|unhandledRejection).*/g) ?? [];
    expect(uncaught).toEqual([]);
    expect(hangs.length, sample(hangs)).toBe(0);
    expect(nonEnvelope.length, sample(nonEnvelope)).toBe(0);
    expect(unexpected.length, sample(unexpected)).toBe(0);
    expect(fiveXX.length, 'the restarts must have failed some requests').toBeGreaterThan(0);
    expect(status500.length, sample(status500)).toBe(0);
    expect(withoutRetryAfter.length, sample(withoutRetryAfter)).toBe(0);
    // Failures only around the outages (from the stop until a few seconds after the start).
    const outsideOutage = failed.filter((o) => !outages.some((w) => o.end >= w.down && o.start <= w.up + RECOVERY_BOUND_MS));
    expect(outsideOutage.length, sample(outsideOutage)).toBe(0);

    // ---- (2) answering again within seconds of Postgres being back
    for (const w of outages) expect(w.recoverySeconds * 1000, w.kind).toBeLessThan(RECOVERY_BOUND_MS);
    // Nothing fails once Postgres has been back for that long (until the next outage).
    const afterBound = failed.filter((o) =>
      outages.some((w, i) => o.start >= w.up + RECOVERY_BOUND_MS && o.end < (outages[i + 1]?.down ?? Infinity)),
    );
    expect(afterBound.length, sample(afterBound)).toBe(0);

    // ---- (3) no corrupted state
    const h = db();
    const counts = new Map<string, { n: number; ids: string[] }>();
    const countCampaigns = async () => {
      counts.clear();
      const rows = await h.db.execute<{ name: string; n: number; ids: string[] }>(
        sql`select name, count(*)::int as n, array_agg(id) as ids from campaigns where network_id = ${networkId} group by name`,
      );
      for (const r of rows) counts.set(r.name, { n: r.n, ids: r.ids });
    };
    const posts = outcomes.filter((o) => o.op === 'campaign');
    const created = posts.filter((o) => o.status === 201);
    const failedPosts = posts.filter((o) => o.status !== 201);
    try {
      await countCampaigns();
      // Every 201 exists exactly once, with the id it was answered with.
      for (const o of created) {
        expect(counts.get(o.campaignName!), o.campaignName).toEqual({ n: 1, ids: [(o.body as { id: string }).id] });
      }
      const committedDespite5xx = failedPosts.filter((o) => counts.has(o.campaignName!));

      // A 201 retried with its key is a replay of the same campaign.
      const replays = await Promise.all(
        created.map((o) => call('campaign', 'POST', `/networks/${networkId}/campaigns`, campaignBody(o.campaignName!), o.idempotencyKey)),
      );
      const notReplayed = replays.filter(
        (r, i) => !(r.status === 201 && r.replayed && (r.body as { id: string }).id === (created[i]!.body as { id: string }).id),
      );
      expect(notReplayed.length, sample(notReplayed)).toBe(0);

      // A failed POST retried with the SAME key runs again (its 5xx was not stored) and creates one
      // campaign — or, if its COMMIT had reached Postgres before the connection died (the client only
      // saw the 5xx), replays that campaign's 201: the key was stored in the same transaction.
      // 409 "still being processed" is the documented answer while the service has
      // not yet released the key of a request that failed during the outage: retry it.
      let answeredConflict = 0;
      const retries = await Promise.all(
        failedPosts.map(async (o) => {
          for (let attempt = 0; ; attempt++) {
            const r = await call('campaign', 'POST', `/networks/${networkId}/campaigns`, campaignBody(o.campaignName!), o.idempotencyKey);
            if (r.status !== 409 || attempt >= 20) return r;
            answeredConflict++;
            await sleep(500);
          }
        }),
      );
      const retryFailures = retries.filter((r) => r.status !== 201);
      expect(retryFailures.length, sample(retryFailures)).toBe(0);
      const retriedReplays = retries.filter((r) => r.replayed).length;
      // Replayed exactly when the first attempt had committed, with that campaign's id.
      const committedIds = new Map(committedDespite5xx.map((o) => [o.campaignName!, counts.get(o.campaignName!)!.ids[0]]));
      const wrongReplays = failedPosts
        .map((o, i) => ({ name: o.campaignName!, replayed: retries[i]!.replayed, id: (retries[i]!.body as { id?: string }).id }))
        .filter((r) => r.replayed !== committedIds.has(r.name) || (r.replayed && r.id !== committedIds.get(r.name)));
      expect(wrongReplays).toEqual([]);

      await countCampaigns();
      const duplicates = [...counts.entries()].filter(([, c]) => c.n > 1);
      expect(duplicates.map(([name, c]) => `${name}: ${c.n}`)).toEqual([]);
      for (const o of [...created, ...failedPosts]) expect(counts.get(o.campaignName!)?.n, o.campaignName).toBe(1);
      expect(counts.size).toBe(posts.length);
      const [stuck] = await h.db.execute<{ n: number }>(sql`select count(*)::int as n from idempotency_keys where state = 'running'`);
      expect(stuck!.n).toBe(0);

      const seconds = (ms: number) => Math.round(ms / 100) / 10;
      reportReliability('postgres-restart', {
        claim:
          'Postgres restarted twice under load (fast and immediate shutdown) → every failed request a 503 envelope with Retry-After, ' +
          'none hung, 2xx again within seconds, every 201 exactly once, every failed POST retried with its Idempotency-Key runs again ' +
          'exactly once (replayed when its COMMIT had reached Postgres before the connection died), worker delivers again',
        figures: {
          requests: outcomes.length,
          '5xx during outage': fiveXX.length,
          '503 with Retry-After': fiveXX.length - withoutRetryAfter.length,
          '500': status500.length,
          'connection errors': failed.filter((o) => o.status === 0).length,
          hangs: hangs.length,
          'non-envelope errors': nonEnvelope.length,
          'slowest request s': seconds(Math.max(...outcomes.map((o) => o.end - o.start))),
          'recovery seconds (fast)': outages[0]!.recoverySeconds,
          'recovery seconds (immediate)': outages[1]!.recoverySeconds,
          'campaign POSTs': posts.length,
          '201s': created.length,
          'retried 5xx POSTs': failedPosts.length,
          'retries answered 201': retries.length - retryFailures.length,
          'retries replayed': retriedReplays,
          'retries first answered 409': answeredConflict,
          'failed POSTs that had committed': committedDespite5xx.length,
          duplicates: duplicates.length,
          'stuck idempotency keys': stuck!.n,
          'webhook after restart s': Math.max(...outages.map((w) => w.webhookSeconds)),
          'webhook before restart s': webhookBefore,
        },
      });
    } finally {
      await h.close();
    }
  });
});
