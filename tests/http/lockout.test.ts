import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { startOwnServer } from '@/tests/support/server-process';

/**
 * The failed-authentication lockout (invariant 9): it counts per client
 * address, believes X-Forwarded-For only from a proxy listed in
 * TRUSTED_PROXIES, and nothing — an Idempotency-Key included — skips it.
 * Requests leave from two loopback addresses: 127.0.0.2 plays the trusted
 * load balancer, 127.0.0.1 an ordinary client.
 */
const PROXY = '127.0.0.2';
const LIMIT = 3;
const superToken = generateApiKeyToken('test');
let own: Awaited<ReturnType<typeof startOwnServer>>;

beforeAll(async () => {
  own = await startOwnServer('lockout', {
    BOOTSTRAP_SUPERUSER_TOKEN: superToken,
    WORKER: 'off',
    AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT),
    TRUSTED_PROXIES: PROXY,
  });
});

afterAll(async () => {
  await own?.stop();
});

/** A POST (to /v1/networks unless told) from `from`, with the given headers; resolves to the status. */
function post(from: string, headers: Record<string, string>, path = '/v1/networks', body: unknown = { name: 'Lockout probe' }): Promise<number> {
  const url = new URL(`${own.server.url}${path}`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const badKey = () => ({ authorization: `Bearer ${generateApiKeyToken('test')}` });

describe('failed-authentication lockout', () => {
  it('behind a trusted proxy locks out the client named by X-Forwarded-For, not everyone behind the proxy', async () => {
    const attacker = { 'x-forwarded-for': '198.51.100.20' };
    const statuses = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push(await post(PROXY, { ...badKey(), ...attacker }));
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    // Another client behind the same proxy is not locked out…
    expect(await post(PROXY, { ...badKey(), 'x-forwarded-for': '198.51.100.21' })).toBe(401);
    // …and the locked-out one stays locked out even with a valid key and an Idempotency-Key.
    expect(await post(PROXY, { authorization: `Bearer ${superToken}`, 'idempotency-key': 'k-1', ...attacker })).toBe(429);
  });

  it('from a client that is not a trusted proxy ignores X-Forwarded-For, so spoofing it does not escape the lockout', async () => {
    const statuses = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push(await post('127.0.0.1', { ...badKey(), 'x-forwarded-for': `203.0.113.${i}` }));
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429, 429]);
  });

  it('counts a bad key that carries an Idempotency-Key like any other failed attempt', async () => {
    const client = { 'x-forwarded-for': '198.51.100.30' };
    const statuses = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push(await post(PROXY, { ...badKey(), 'idempotency-key': `k-${i}`, ...client }));
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
  });

  it('counts an unknown invitation token sent beside a valid API key as a failed attempt', async () => {
    const client = { 'x-forwarded-for': '198.51.100.40', authorization: `Bearer ${superToken}` };
    const statuses = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      statuses.push(await post(PROXY, client, '/v1/invitations/accept', { invitation_token: `inv_${String(i).repeat(40)}` }));
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
  });
});
