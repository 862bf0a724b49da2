/**
 * Request budgets (issue 33; server/http/request-budget.ts). An outside probe pushed another
 * network's `/v1/me` from 12 ms to 4 s with 10 console batches of 2,000 calls from one read_only
 * key: unbounded batches, the key looked up once per call and before the rate limit, and a fresh
 * bucket with every minted key. Each case below reads, through a proxy in front of Postgres, how
 * often the service looked a key up.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, database, openDatabase } from '@/db/client';
import { FIND_KEY_STATEMENT } from '@/server/auth/principal';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { api, type Problem } from '@/tests/support/api';
import { createNetworkRow, personKey, serviceAccountKey } from '@/tests/support/fixtures';
import { proxiedTestDatabase } from '@/tests/support/pg-proxy';
import { API_ONLY, startServerProcess, type ServerProcess } from '@/tests/support/server-process';

const superToken = generateApiKeyToken('test');
let server: ServerProcess;
let stopAll: () => Promise<void>;
/** Statements the service ran, while `recording`. */
let executed: string[] = [];
let recording = false;

// Refill is negligible over a test (0.01 token/s): what a test spends is what it gets.
const KEY_BURST = 60;
const OWNER_BURST = 100;
const NETWORK_BURST = 150;
const MAX_BATCH = 50;

beforeAll(async () => {
  const { database: db, proxy, viaProxy } = await proxiedTestDatabase('budgets', { onExecution: (sql) => recording && executed.push(sql) });
  server = await startServerProcess({
    ...API_ONLY,
    DATABASE_URL: viaProxy,
    BOOTSTRAP_SUPERUSER_TOKEN: superToken,
    WORKER: 'off',
    RATE_LIMIT_PER_SECOND: '0.01',
    RATE_LIMIT_BURST: String(KEY_BURST),
    RATE_LIMIT_OWNER_PER_SECOND: '0.01',
    RATE_LIMIT_OWNER_BURST: String(OWNER_BURST),
    RATE_LIMIT_NETWORK_PER_SECOND: '0.01',
    RATE_LIMIT_NETWORK_BURST: String(NETWORK_BURST),
    CONSOLE_MAX_BATCH_SIZE: String(MAX_BATCH),
  });
  // Keys and service accounts are made with the product's own services on the test's own
  // connection (not through the proxy), so that setting up spends no request budget.
  openDatabase(db.url, { max: 5 });
  stopAll = async () => {
    await closeDatabase();
    await server.stop();
    await proxy.close();
    await db.drop();
  };
}, 240_000);

afterAll(async () => {
  await stopAll?.();
});

/** Key lookups (the one statement that finds a key by its token's hash) while `during` runs. */
async function lookupsDuring<T>(during: () => Promise<T>): Promise<{ result: T; lookups: number }> {
  executed = [];
  recording = true;
  try {
    const result = await during();
    return { result, lookups: executed.filter((sql) => sql === FIND_KEY_STATEMENT.text).length };
  } finally {
    recording = false;
  }
}

const v1 = <T = Problem>(path: string, token: string) => api<T>('GET', path, { token, baseUrl: server.url });

/** A console GET batch of `calls` calls of `me.get`. */
async function meBatch(token: string, calls: number) {
  const res = await fetch(`${server.url}/api/trpc/${Array(calls).fill('me.get').join(',')}?batch=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

async function serviceAccountToken(): Promise<string> {
  const network = await createNetworkRow();
  return (await serviceAccountKey(network.id, 'read_only')).token;
}

describe('the console transport (/api/trpc)', () => {
  it(`refuses a batch of more than CONSOLE_MAX_BATCH_SIZE (${MAX_BATCH}) calls with 400, before any key lookup`, async () => {
    const token = await serviceAccountToken();
    const { result: res, lookups } = await lookupsDuring(() => meBatch(token, 2_000));
    expect(res.status).toBe(400);
    const problem = (res.body as { error: { data: { problem: Problem } } }).error.data.problem;
    expect(problem.type).toMatch(/\/errors\/bad-request$/);
    expect(problem.detail).toBe(
      `This batch holds 2000 calls; /api/trpc takes at most ${MAX_BATCH} in one request (CONSOLE_MAX_BATCH_SIZE). Send them in smaller batches.`,
    );
    expect(lookups).toBe(0);
    // Encoded commas are commas to tRPC: counted the same.
    const encoded = await fetch(
      `${server.url}/api/trpc/${Array(MAX_BATCH + 1)
        .fill('me.get')
        .join('%2C')}?batch=1`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(encoded.status).toBe(400);
  });

  it('looks the key up once for a whole batch, and spends one token per call', async () => {
    const token = await serviceAccountToken();
    const { result: res, lookups } = await lookupsDuring(() => meBatch(token, MAX_BATCH));
    expect(res.status).toBe(200);
    expect((res.body as unknown[]).every((r) => (r as { result?: unknown }).result)).toBe(true);
    expect(lookups).toBe(1);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(KEY_BURST - MAX_BATCH));
  });

  it('counts a batch’s refused key once against the address, not once per call', async () => {
    const unknown = generateApiKeyToken('test');
    const res = await meBatch(unknown, 10);
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBe('30'); // AUTH_FAILURE_LIMIT_PER_MINUTE's default
    expect(res.headers.get('ratelimit-remaining')).toBe('29');
  });
});

describe('a key that spent its bucket', () => {
  it('is refused with 429 without being looked up', async () => {
    const token = await serviceAccountToken();
    const spent = await meBatch(token, MAX_BATCH);
    expect(spent.status).toBe(200);
    for (let i = MAX_BATCH; i < KEY_BURST; i++) expect((await v1('/me', token)).status).toBe(200);
    const { result: refused, lookups } = await lookupsDuring(async () => ({
      single: [await v1('/me', token), await v1('/me', token)],
      batch: await meBatch(token, 5),
    }));
    expect(lookups).toBe(0);
    for (const res of refused.single) {
      expect(res.status).toBe(429);
      expect(res.body.detail).toBe('Rate limit exceeded. Retry after the seconds in Retry-After.');
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.headers.get('ratelimit-limit')).toBe(String(KEY_BURST));
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
    }
    expect(refused.batch.status).toBe(429);
  });
});

describe('the budget of a key’s owner', () => {
  it('is shared by every key of one person: 20 fresh keys do not bring 20 budgets', async () => {
    const network = await createNetworkRow();
    const { person, token: first } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const tokens = [first];
    for (let i = 1; i < 20; i++) {
      const { token } = await mintApiKey({
        tx: database(),
        name: `fresh ${i}`,
        owner: { userId: person.id },
        creator: 'platform',
      });
      tokens.push(token);
    }
    // 6 requests per key: 120 in all, each key spending 6 of its own 60, the person 120 of 100.
    const answers = await Promise.all(
      tokens.map(async (token) => {
        const out = [];
        for (let i = 0; i < 6; i++) out.push(await v1('/me', token));
        return out;
      }),
    );
    const all = answers.flat();
    expect(all.filter((r) => r.status === 200)).toHaveLength(OWNER_BURST);
    const refused = all.filter((r) => r.status === 429);
    expect(refused).toHaveLength(120 - OWNER_BURST);
    for (const res of refused) {
      expect(res.body.detail).toMatch(/all keys of one person or service account share one budget/);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.headers.get('ratelimit-limit')).toBe(String(OWNER_BURST));
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
    }
    // Now known to be the person's, their keys are refused before any lookup.
    const { lookups } = await lookupsDuring(async () => {
      for (const token of tokens.slice(0, 5)) expect((await v1('/me', token)).status).toBe(429);
    });
    expect(lookups).toBe(0);
    // Another person's key is not touched by it.
    expect((await v1('/me', await serviceAccountToken())).status).toBe(200);
  });
});

describe('the budget of a network', () => {
  it('is shared by every key acting on it, is not spent by keys refused there, and does not hold back super_user keys', async () => {
    const network = await createNetworkRow(`Budget ${randomBytes(3).toString('hex')}`);
    // A key of another network is refused here (403) before it can spend this network's budget.
    const outsider = await serviceAccountToken();
    for (let i = 0; i < 20; i++) expect((await v1(`/networks/${network.id}`, outsider)).status).toBe(403);

    // Three service accounts (three owners), 55 requests each: under each key's 60 and each owner's 100.
    const tokens = await Promise.all([0, 1, 2].map(async () => (await serviceAccountKey(network.id, 'read_only')).token));
    const answers = await Promise.all(
      tokens.map(async (token) => {
        const out = [];
        for (let i = 0; i < 55; i++) out.push(await v1(`/networks/${network.id}`, token));
        return out;
      }),
    );
    const all = answers.flat();
    expect(all.filter((r) => r.status === 200)).toHaveLength(NETWORK_BURST);
    const refused = all.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3 * 55 - NETWORK_BURST);
    for (const res of refused) {
      expect(res.body.detail).toMatch(/Rate limit exceeded for this network: every key acting on it shares one budget/);
      expect(res.headers.get('ratelimit-limit')).toBe(String(NETWORK_BURST));
    }
    // Their owners' own budgets are untouched by the network's: elsewhere they still answer.
    expect((await v1('/me', tokens[0]!)).status).toBe(200);
    // The operator's super_user key spends its own budget, never the network's.
    expect((await v1(`/networks/${network.id}`, superToken)).status).toBe(200);
  });
});
