import { randomUUID } from 'node:crypto';
import { expect, test, type APIResponse } from '@playwright/test';

const TOKEN = process.env.E2E_TOKEN;
if (!TOKEN) throw new Error('E2E_TOKEN is not set: run these tests with `npx playwright test` (playwright.config.ts sets it).');
const auth = { Authorization: `Bearer ${TOKEN}` };

async function expectProblem(response: APIResponse, status: number, slug: string) {
  expect(response.status()).toBe(status);
  expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
  const body = await response.json();
  expect(Object.keys(body).sort()).toEqual(['detail', 'status', 'title', 'type']);
  expect(body.status).toBe(status);
  expect(body.type).toMatch(new RegExp(`/docs/errors/${slug}$`));
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body;
}

test.describe('/v1 over HTTP', () => {
  test('GET /v1/me with the bootstrap token is the super_user key', async ({ request }) => {
    const response = await request.get('/v1/me', { headers: auth });
    expect(response.status()).toBe(200);
    const me = await response.json();
    expect(me.super_user).toBe(true);
    expect(me.key_id).toMatch(/^key_/);
    expect(Array.isArray(me.scopes)).toBe(true);
    expect(JSON.stringify(me)).not.toContain(TOKEN);
  });

  test('GET /v1/me without a token is a 401 problem document', async ({ request }) => {
    await expectProblem(await request.get('/v1/me'), 401, 'unauthorized');
  });

  test('GET /v1/me with an unknown token is a 401 problem document', async ({ request }) => {
    const response = await request.get('/v1/me', { headers: { Authorization: `Bearer sk_test_${'x'.repeat(40)}` } });
    await expectProblem(response, 401, 'unauthorized');
  });

  test('a created network appears in the list', async ({ request }) => {
    const name = `e2e network ${randomUUID()}`;
    const created = await request.post('/v1/networks', { headers: auth, data: { name } });
    expect(created.status()).toBe(201);
    const network = await created.json();
    expect(network).toMatchObject({ name, version: expect.any(Number) });
    expect(network.id).toMatch(/^net_/);

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: APIResponse = await request.get('/v1/networks', { headers: auth, params: { limit: 200, ...(cursor ? { cursor } : {}) } });
      expect(page.status()).toBe(200);
      const body = (await page.json()) as { items: { id: string; name: string }[]; next_cursor: string | null };
      ids.push(...body.items.map((n) => n.id));
      cursor = body.next_cursor;
    } while (cursor);
    expect(ids).toContain(network.id);
  });

  test('a POST retried with the same Idempotency-Key is replayed', async ({ request }) => {
    const headers = { ...auth, 'Idempotency-Key': randomUUID() };
    const data = { name: `e2e idempotent ${randomUUID()}` };
    const first = await request.post('/v1/networks', { headers, data });
    expect(first.status()).toBe(201);
    const again = await request.post('/v1/networks', { headers, data });
    expect(again.status()).toBe(201);
    expect(again.headers()['idempotent-replayed']).toBe('true');
    expect((await again.json()).id).toBe((await first.json()).id);
    await expectProblem(await request.post('/v1/networks', { headers, data: { name: 'something else' } }), 422, 'idempotency-key-reused');
  });
});

test.describe('/v1 from a page in the browser', () => {
  test('fetch from the docs page reaches the API with and without a key', async ({ page }) => {
    await page.goto('/docs');
    const result = await page.evaluate(async (token) => {
      const ok = await fetch('/v1/me', { headers: { Authorization: `Bearer ${token}` } });
      const denied = await fetch('/v1/me');
      return {
        ok: { status: ok.status, body: await ok.json() },
        denied: { status: denied.status, type: denied.headers.get('content-type'), body: await denied.json() },
      };
    }, TOKEN);
    expect(result.ok.status).toBe(200);
    expect(result.ok.body.super_user).toBe(true);
    expect(result.denied.status).toBe(401);
    expect(result.denied.type).toMatch(/^application\/problem\+json/);
    expect(Object.keys(result.denied.body).sort()).toEqual(['detail', 'status', 'title', 'type']);
  });
});
