import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api, type Problem } from '@/tests/support/api';
import { startServerBehindProxy } from '@/tests/support/pg-proxy';
import type { ServerProcess } from '@/tests/support/server-process';

/**
 * Postgres unreachable: both transports answer 503 with the envelope's words, and the
 * console transport (tRPC, which puts an error's message in its body) does not pass on the
 * driver's message — connection errors name hosts and ports, failed queries their SQL.
 */
const token = generateApiKeyToken('test');
let own: Awaited<ReturnType<typeof startServerBehindProxy>>;
let server: ServerProcess;
let proxy: Awaited<ReturnType<typeof startServerBehindProxy>>['proxy'];

beforeAll(async () => {
  own = await startServerBehindProxy('dbdown', token);
  ({ server, proxy } = own);
});

afterAll(async () => {
  await own?.stop();
});

describe('Postgres unreachable', () => {
  it('answers 503 on /v1 and the console transport, with no driver message in either', { timeout: 60_000 }, async () => {
    expect((await api('GET', '/me', { token, baseUrl: server.url })).status).toBe(200);
    proxy.refuseConnections();

    const rest = await api<Problem>('GET', '/me', { token, baseUrl: server.url });
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).not.toBeNull();

    const res = await fetch(`${server.url}/api/trpc/me.get`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(503);
    const text = await res.text();
    const error = (JSON.parse(text) as { error: { message: string; data: { problem: Problem } } }).error;
    expect(error.data.problem.status).toBe(503);
    expect(error.message).toBe(error.data.problem.detail);
    expect((error.data as { httpStatus?: number }).httpStatus).toBe(503);
    // Nothing of the failure itself: not the database's address, no driver code, no SQL.
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(String(proxy.port));
    expect(text).not.toMatch(/ECONN|CONNECTION_|CONNECT_TIMEOUT|select |api_keys/i);

    proxy.acceptConnections();
    for (let i = 0; i < 50 && (await api('GET', '/me', { token, baseUrl: server.url })).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 200));
    expect((await api('GET', '/me', { token, baseUrl: server.url })).status).toBe(200);
  });

  it('GET /healthz (for load balancers, no key) answers 200 while the database answers, 503 while it does not', { timeout: 60_000 }, async () => {
    const health = () => fetch(`${server.url}/healthz`);
    const up = await health();
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ok' });
    proxy.refuseConnections();
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toBe('application/problem+json');
    expect(down.headers.get('retry-after')).not.toBeNull();
    expect(await down.text()).not.toContain('127.0.0.1');
    proxy.acceptConnections();
    for (let i = 0; i < 50 && (await health()).status !== 200; i++) await new Promise((r) => setTimeout(r, 200));
    expect((await health()).status).toBe(200);
  });
});
