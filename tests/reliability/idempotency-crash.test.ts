/**
 * The service process SIGKILLed during a burst of idempotent POSTs, then started
 * again on the same database. An outside probe once found keys that answered 409
 * "still being processed" on every retry for 24 h after such a crash: the key's
 * reservation was committed before the operation's transaction, so a process that
 * died between the two left the key reserved with nobody to finish or release it.
 *
 * 32 clients POST campaigns, each request with a fresh Idempotency-Key, until the
 * process is killed with requests in flight. A new process is started on the same
 * database with the same token, and EVERY key that was sent (answered or not) is
 * retried with the same body until it answers 201. Proven: every key reaches 201
 * within 60 s of the restart; a key answered 201 before the kill replays that
 * answer; each key names the one campaign made for it — none stuck, none doubled.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '@/db/client';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { createTestDatabase } from '@/tests/support/database';
import { reportReliability } from '@/tests/support/reliability';
import { ROOT, startServerProcess, type ServerProcess } from '@/tests/support/server-process';
import { everyRequestBudget } from '@/tests/support/shared-limits';

const CLIENTS = 32;
/** How long the burst runs before the kill: long enough that every client has a request in flight. */
const BURST_MS = 1_500;
/** Every key must answer 201 within this long after the new process is ready. */
const RECOVERY_BOUND_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const RETRY_PAUSE_MS = 250;
/** Below this, the kill did not catch the burst mid-flight and the test would prove nothing. */
const MIN_IN_FLIGHT_AT_KILL = 8;

const token = generateApiKeyToken('test');
const serverLog = (n: number) => path.join(ROOT, 'test-results', `idempotency-crash-server-${n}.log`);
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let server: ServerProcess | undefined;
let db: DbHandle | undefined;

const serverEnv = () => ({
  DATABASE_URL: database!.url,
  BOOTSTRAP_SUPERUSER_TOKEN: token,
  // One key makes every request: neither its bucket nor its owner's may be what answers.
  ...everyRequestBudget('100000'),
  AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
});

beforeAll(async () => {
  database = await createTestDatabase('crash');
  server = await startServerProcess(serverEnv(), serverLog(1));
}, 200_000);

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await database?.drop();
});

interface Answer {
  /** HTTP status, or 0 when the connection failed. */
  status: number;
  id?: string;
  detail?: string;
  replayed: boolean;
  error?: string;
  at: number;
}

/** One campaign POST, with the key and the exact body bytes its first attempt sent. */
interface KeyRun {
  key: string;
  body: string;
  /** The answer of the request sent during the burst (undefined while in flight). */
  first?: Answer;
  retries: Answer[];
  /** Why the key was given up: an answer that is neither 201 nor worth a retry. */
  failure?: Answer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(baseUrl: string, url: string, body: string, key?: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (key) headers['idempotency-key'] = key;
  try {
    const res = await fetch(`${baseUrl}/v1${url}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      const json: unknown = JSON.parse(text);
      if (json && typeof json === 'object') parsed = json as Record<string, unknown>;
    } catch {
      // not JSON: keep the text as the detail
    }
    return {
      status: res.status,
      id: typeof parsed.id === 'string' ? parsed.id : undefined,
      detail: typeof parsed.detail === 'string' ? parsed.detail : text.slice(0, 200),
      replayed: res.headers.get('idempotent-replayed') === 'true',
      at: Date.now(),
    };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return { status: 0, replayed: false, error: String(cause ?? error), at: Date.now() };
  }
}

/** The answers a client is told to retry: a key still held by a request in flight, or a 5xx. */
const worthRetrying = (a: Answer) => a.status >= 500 || (a.status === 409 && /being processed/i.test(a.detail ?? ''));

/** Run `task` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

describe('Idempotency-Keys across a SIGKILL of the service', () => {
  it('answers 201 for every key retried after the restart within 60 s, each naming exactly one campaign', { timeout: 300_000 }, async () => {
    const setup = async (url: string, body: unknown) => {
      const a = await post(server!.url, url, JSON.stringify(body));
      expect(a.status, a.detail).toBe(201);
      return a.id!;
    };
    const networkId = await setup('/networks', { name: 'Crash' });
    const advertiserId = await setup(`/networks/${networkId}/advertisers`, { name: 'Acme' });
    const campaignsUrl = `/networks/${networkId}/campaigns`;
    // Warm the route, so that the burst is spent on campaigns, not on the first request's loading.
    const warm = await post(server!.url, campaignsUrl, JSON.stringify({ name: 'warm-up', advertiser_id: advertiserId }), randomUUID());
    expect(warm.status, warm.detail).toBe(201);

    // ---- the burst: CLIENTS clients, each POSTing with a fresh key, until the kill
    const runs: KeyRun[] = [];
    let bursting = true;
    const firstServer = server!;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (bursting) {
        const key = randomUUID();
        const run: KeyRun = { key, body: JSON.stringify({ name: `crash ${key}`, advertiser_id: advertiserId }), retries: [] };
        runs.push(run);
        run.first = await post(firstServer.url, campaignsUrl, run.body, key);
      }
    });
    await sleep(BURST_MS);
    bursting = false;
    // Counted synchronously before the kill: nothing can be answered in between.
    const sentBeforeKill = runs.length;
    const answeredBeforeKill = runs.filter((r) => r.first && r.first.status !== 0).length;
    const inFlightAtKill = runs.filter((r) => !r.first).length;
    const killedAt = Date.now();
    await firstServer.stop('SIGKILL');
    expect(firstServer.child.signalCode).toBe('SIGKILL');
    await Promise.all(clients);
    const answered201 = runs.filter((r) => r.first!.status === 201);

    // ---- the restart: a new process on the same database, with the same token
    server = await startServerProcess(serverEnv(), serverLog(2));
    const restartedAt = Date.now();
    const restartSeconds = (restartedAt - killedAt) / 1000;

    // ---- every key retried, with the same body and key, until it answers 201
    const pending = new Set(runs);
    while (pending.size && Date.now() - restartedAt < RECOVERY_BOUND_MS) {
      await eachLimited([...pending], CLIENTS, async (run) => {
        const a = await post(server!.url, campaignsUrl, run.body, run.key);
        run.retries.push(a);
        if (a.status === 201) pending.delete(run);
        else if (!worthRetrying(a)) {
          run.failure = a;
          pending.delete(run);
        }
      });
      if (pending.size) await sleep(RETRY_PAUSE_MS);
    }
    const last = (r: KeyRun) => r.retries.at(-1)!;
    const succeeded = runs.filter((r) => last(r).status === 201);
    const stuck = runs.filter((r) => !r.failure && last(r).status !== 201);
    const failed = runs.filter((r) => r.failure);
    const late = succeeded.filter((r) => last(r).at - restartedAt > RECOVERY_BOUND_MS);
    const secondsToLast201 = succeeded.length ? Math.max(...succeeded.map((r) => last(r).at - restartedAt)) / 1000 : 0;

    // ---- in the database: one campaign per key, the one the key answers with
    db = connect(database!.url, { max: 1 });
    const rows = await db.db.execute<{ name: string; ids: string[] }>(
      sql`select name, array_agg(id order by id) as ids from campaigns where network_id = ${networkId} and name like 'crash %' group by name`,
    );
    const campaignsByKey = new Map(rows.map((r) => [r.name.slice('crash '.length), r.ids]));
    const duplicates = runs.filter((r) => (campaignsByKey.get(r.key)?.length ?? 0) > 1);
    const missing = succeeded.filter((r) => !campaignsByKey.has(r.key));
    const wrongId = succeeded.filter((r) => campaignsByKey.get(r.key)?.length === 1 && campaignsByKey.get(r.key)![0] !== last(r).id);
    // A 201 the client saw before the kill is replayed, never run a second time.
    const notReplayed = answered201.filter((r) => last(r).status === 201 && !(last(r).replayed && last(r).id === r.first!.id));
    const strays = [...campaignsByKey.keys()].filter((key) => !runs.some((r) => r.key === key));

    const retriesSent = runs.reduce((n, r) => n + r.retries.length, 0);
    reportReliability('idempotency-crash', {
      claim:
        `Service SIGKILLed during a burst of idempotent POSTs by ${CLIENTS} clients, restarted on the same database → ` +
        'every key retried answers 201 within 60 s of the restart (a 201 seen before the kill replays), each key names exactly one campaign',
      figures: {
        'requests sent before the kill': sentBeforeKill,
        keys: runs.length,
        'keys answered before the kill': answeredBeforeKill,
        'keys in flight at the kill': inFlightAtKill,
        'restart s': Math.round(restartSeconds * 10) / 10,
        'retries sent': retriesSent,
        'retries beyond the first per key': retriesSent - runs.length,
        'keys answered 201 fresh': succeeded.filter((r) => !last(r).replayed).length,
        'keys answered 201 replayed': succeeded.filter((r) => last(r).replayed).length,
        's until the last key reached 201': Math.round(secondsToLast201 * 10) / 10,
        duplicates: duplicates.length,
        'stuck keys': stuck.length,
        'keys failed otherwise': failed.length,
      },
    });

    const sample = (xs: KeyRun[]) =>
      JSON.stringify(
        xs
          .slice(0, 5)
          .map((r) => ({ key: r.key, first: r.first, retries: r.retries.length, last: last(r), campaigns: campaignsByKey.get(r.key) ?? [] })),
      );
    expect(inFlightAtKill, 'the kill must catch requests in flight').toBeGreaterThanOrEqual(MIN_IN_FLIGHT_AT_KILL);
    expect(stuck.length, `keys still refused ${RECOVERY_BOUND_MS / 1000} s after the restart: ${sample(stuck)}`).toBe(0);
    expect(failed.length, `keys answered neither 201 nor a retryable status: ${sample(failed)}`).toBe(0);
    expect(late.length, sample(late)).toBe(0);
    expect(duplicates.length, `keys with more than one campaign: ${sample(duplicates)}`).toBe(0);
    expect(missing.length, `keys answered 201 without a campaign: ${sample(missing)}`).toBe(0);
    expect(wrongId.length, `keys whose 201 names another campaign: ${sample(wrongId)}`).toBe(0);
    expect(notReplayed.length, `201s seen before the kill that were not replayed: ${sample(notReplayed)}`).toBe(0);
    expect(strays).toEqual([]);
    expect(campaignsByKey.size).toBe(runs.length);
  });
});
