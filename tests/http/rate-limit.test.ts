import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '../../server/auth/tokens';
import { api } from '../support/api';
import { startOwnServer, type ServerProcess } from '../support/server-process';

/** A server of its own with small limits, so the shared one stays unthrottled. */
let server: ServerProcess;
let stopServer: () => Promise<void>;
const token = generateApiKeyToken('test');

beforeAll(async () => {
  ({ server, stop: stopServer } = await startOwnServer('rl', {
    BOOTSTRAP_SUPERUSER_TOKEN: token,
    WORKER: 'off',
    RATE_LIMIT_PER_SECOND: '1',
    RATE_LIMIT_BURST: '5',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '3',
  }));
});

afterAll(async () => {
  await stopServer?.();
});

describe('rate limits', () => {
  it('answers 429 with Retry-After and RateLimit-* once a key spends its burst', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof api<{ type: string; detail: string }>>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await api<{ type: string; detail: string }>('GET', '/me', { token, baseUrl: server.url });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses).toContain(429);
    expect(limited!.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(limited!.headers.get('ratelimit-limit')).toBe('5');
    expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited!.headers.get('content-type')).toMatch(/problem\+json/);
    expect(limited!.body.type).toMatch(/\/errors\/rate-limited$/);

    // The bucket refills at 1 token/s.
    await new Promise((r) => setTimeout(r, Number(limited!.headers.get('retry-after')) * 1000 + 100));
    expect((await api('GET', '/me', { token, baseUrl: server.url })).status).toBe(200);
  });

  it('limits failed authentication per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await api('GET', '/me', { token: generateApiKeyToken('test'), baseUrl: server.url })).status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const blocked = await api('GET', '/me', { token: 'sk_test_wrong', baseUrl: server.url });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });
});
