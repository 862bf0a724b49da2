import { describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api } from '@/tests/support/api';
import { useOwnServer } from '@/tests/support/own-server';

/** A server of its own with small limits, so the shared one stays unthrottled. */
const own = useOwnServer('rl', { WORKER: 'off', RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '5', AUTH_FAILURE_LIMIT_PER_MINUTE: '3' });
const { token } = own;

describe('rate limits', () => {
  it('answers 429 with Retry-After and RateLimit-* once a key spends its burst', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof api<{ type: string; detail: string }>>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await api<{ type: string; detail: string }>('GET', '/me', { token, baseUrl: own.server.url });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses).toContain(429);
    expect(limited!.headers.get('retry-after')).toMatch(/^\d+$/); // what is left after the hold (below)
    expect(limited!.headers.get('ratelimit-limit')).toBe('5');
    expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited!.headers.get('content-type')).toMatch(/problem\+json/);
    expect(limited!.body.type).toMatch(/\/errors\/rate-limited$/);

    // The bucket refills at 1 token/s: a token's time after the last request (and the limiter's
    // 250 ms sync with its shared store, which may round a bucket down by that much), one is admitted.
    await new Promise((r) => setTimeout(r, 1_300));
    expect((await api('GET', '/me', { token, baseUrl: own.server.url })).status).toBe(200);
  });

  it('holds a refusal until the key’s next token (at most REFUSAL_HOLD_MS), then says no wait is left', async () => {
    await new Promise((r) => setTimeout(r, 5_100)); // a full bucket: 5 tokens at 1/s
    for (let i = 0; i < 5; i++) expect((await api('GET', '/me', { token, baseUrl: own.server.url })).status).toBe(200);
    const started = performance.now();
    const refused = await api('GET', '/me', { token, baseUrl: own.server.url });
    const heldMs = performance.now() - started;
    expect(refused.status).toBe(429);
    // The answer came when the key's next token did (1 token/s, the burst spent in a few ms).
    expect(heldMs).toBeGreaterThanOrEqual(700);
    expect(refused.headers.get('retry-after')).toBe('0');
    // A client that retries as told loses nothing: the token is there (give or take the limiter's
    // 250 ms sync with its shared store, which may round a bucket down by that much refill).
    await new Promise((r) => setTimeout(r, 300));
    expect((await api('GET', '/me', { token, baseUrl: own.server.url })).status).toBe(200);
  });

  it('an unknown route answers 404 with RateLimit-* too: of the key, or without a key of the address', async () => {
    await new Promise((r) => setTimeout(r, 1_100)); // the test above left the key's bucket empty
    const withKey = await api('GET', '/no-such-thing', { token, baseUrl: own.server.url });
    expect(withKey.status).toBe(404);
    expect(withKey.headers.get('ratelimit-limit')).toBe('5');
    expect(withKey.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    expect(withKey.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    const withoutKey = await api('GET', '/no-such-thing', { token: null, baseUrl: own.server.url });
    expect(withoutKey.status).toBe(404);
    expect(withoutKey.headers.get('ratelimit-limit')).toBe('3');
    expect(withoutKey.headers.get('ratelimit-remaining')).toBe('3'); // no credential, nothing spent
  });

  it('limits failed authentication per client address, unknown paths included; each 401 says how much is left and asks for a Bearer token', async () => {
    const statuses: number[] = [];
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 5; i++) {
      // The first refused key goes to a path with no operation: it counts all the same.
      const res = await api('GET', i === 0 ? '/no-such-thing' : '/me', { token: generateApiKeyToken('test'), baseUrl: own.server.url });
      statuses.push(res.status);
      remaining.push(res.headers.get('ratelimit-remaining'));
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      if (res.status === 401) {
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(res.headers.get('ratelimit-reset')).toMatch(/^[1-9]\d*$/);
      }
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(remaining).toEqual(['2', '1', '0', '0', '0']);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const blocked = await api('GET', '/me', { token: 'sk_test_wrong', baseUrl: own.server.url });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });
});
