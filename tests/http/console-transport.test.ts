import { describe, expect, inject, it } from 'vitest';

/** The console calls the same procedures over tRPC at /api/trpc. */
async function trpc(path: string, init: { token?: string | null; input?: unknown; method?: string } = {}) {
  const token = init.token === undefined ? inject('superToken') : init.token;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const method = init.method ?? 'GET';
  const query = method === 'GET' && init.input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(init.input))}` : '';
  const res = await fetch(`${inject('baseUrl')}/api/trpc/${path}${query}`, {
    method,
    headers,
    body: method === 'POST' ? JSON.stringify(init.input) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('console transport (/api/trpc)', () => {
  it('serves the same procedures with the same authentication', async () => {
    const me = await trpc('me.get');
    expect(me.status).toBe(200);
    expect((me.body.result as { data: { super_user: boolean } }).data.super_user).toBe(true);
  });

  it('reports errors with the envelope’s detail for the UI to show', async () => {
    const res = await trpc('me.get', { token: null });
    expect(res.status).toBe(401);
    const problem = (res.body.error as { data: { problem: { status: number; detail: string } } }).data.problem;
    expect(problem.status).toBe(401);
    expect(problem.detail).toMatch(/Authorization/);
  });

  it('creates through a mutation with the same validation', async () => {
    const bad = await trpc('networks.create', { method: 'POST', input: { name: ' ' } });
    expect(bad.status).toBe(400);
    const ok = await trpc('networks.create', { method: 'POST', input: { name: 'From the console' } });
    expect(ok.status).toBe(200);
    expect((ok.body.result as { data: { name: string } }).data.name).toBe('From the console');
  });

  it('a refused loopback webhook URL names WEBHOOK_ALLOW_PRIVATE=1 in the field error the dialog shows under the URL', async () => {
    const network = await trpc('networks.create', { method: 'POST', input: { name: 'Console webhooks' } });
    const networkId = (network.body.result as { data: { id: string } }).data.id;
    const res = await trpc('webhooks.create', { method: 'POST', input: { networkId, url: 'http://127.0.0.1:9/hooks', events: ['offer.accepted'] } });
    expect(res.status).toBe(400);
    const problem = (res.body.error as { data: { problem: { errors?: Array<{ path: string; message: string }> } } }).data.problem;
    expect(problem.errors).toEqual([{ path: 'url', message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=1') }]);
  });
});
