import { Agent, request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { api, expectProblem, type Page } from '@/tests/support/api';
import { personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Network {
  id: string;
  name: string;
  version: number;
  created_at: string;
  updated_at: string;
}

async function createNetwork(name: string) {
  const res = await api<Network>('POST', '/networks', { body: { name } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('networks', () => {
  it('creates a network: 201, the resource, an ETag', async () => {
    const res = await api<Network>('POST', '/networks', { body: { name: '  Pod Ads Inc  ' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Pod Ads Inc', version: 1 });
    expect(res.body.id).toMatch(/^net_[0-9a-z]{26}$/);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.headers.get('etag')).toBe('"1"');
    const got = await api<Network>('GET', `/networks/${res.body.id}`);
    expect(got.body).toEqual(res.body);
  });

  it('makes every network a test network under APP_ENV=test: "live" is a 400 naming mode', async () => {
    const made = await api<Network & { mode: string }>('POST', '/networks', { body: { name: 'Sandbox', mode: 'test' } });
    expect(made.body.mode).toBe('test');
    expect((await api<Network & { mode: string }>('POST', '/networks', { body: { name: 'Plain' } })).body.mode).toBe('test');
    const live = expectProblem(await api('POST', '/networks', { body: { name: 'Live', mode: 'live' } }), 400, 'bad-request');
    expect(live.errors?.[0]?.path).toBe('mode');
    expect(live.detail).toMatch(/APP_ENV=test/);
  });

  it('pages through networks in id order with an opaque cursor', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createNetwork(`Paged ${i}`));
    const { token } = await personKey(created.map((n) => ({ networkId: n.id, role: 'read_only' as const })));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const res = await api<Page<Network>>('GET', `/networks${query}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((n) => n.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(created.map((n) => n.id));
    expect([...seen].sort()).toEqual(seen);
  });

  it('finds networks by name or id with q, among those the key can see, page by page', async () => {
    const tag = `Zq${Date.now().toString(36)}`;
    const [mine1, mine2, theirs] = [
      await createNetwork(`${tag} North 100%`),
      await createNetwork(`The ${tag.toUpperCase()} South`),
      await createNetwork(`${tag} Other`),
    ];
    const list = async (query: string, token?: string) => {
      const res = await api<Page<Network>>('GET', `/networks${query}`, token ? { token } : {});
      expect(res.status).toBe(200);
      return res.body;
    };
    // super_user: every network, name in any case, in id order; an exact id; LIKE's % taken literally.
    expect((await list(`?q=${tag.toLowerCase()}`)).items.map((n) => n.id)).toEqual([mine1.id, mine2.id, theirs.id]);
    expect((await list(`?q=${theirs.id}`)).items.map((n) => n.id)).toEqual([theirs.id]);
    expect((await list(`?q=${encodeURIComponent(`${tag} North 100%`)}`)).items.map((n) => n.id)).toEqual([mine1.id]);
    expect((await list(`?q=${encodeURIComponent('100%x')}`)).items).toEqual([]);

    // A key with two of them: only those two, whatever matches elsewhere; not even by the other's id.
    const { token } = await personKey([mine1, mine2].map((n) => ({ networkId: n.id, role: 'read_only' as const })));
    expect((await list(`?q=${tag}`, token)).items.map((n) => n.id)).toEqual([mine1.id, mine2.id]);
    expect((await list(`?q=${theirs.id}`, token)).items).toEqual([]);

    // The cursor carries on within q, and belongs to it.
    const first = await list(`?q=${tag}&limit=1`, token);
    expect(first.items.map((n) => n.id)).toEqual([mine1.id]);
    const second = await list(`?q=${tag}&limit=1&cursor=${encodeURIComponent(first.next_cursor!)}`, token);
    expect(second).toEqual({ items: [expect.objectContaining({ id: mine2.id })], next_cursor: null });
    expect((await api('GET', `/networks?q=other&cursor=${encodeURIComponent(first.next_cursor!)}`, { token })).status).toBe(400);
    expect((await api('GET', `/networks?cursor=${encodeURIComponent(first.next_cursor!)}`, { token })).status).toBe(400);

    for (const bad of ['', '%20%20', 'x'.repeat(101)]) {
      const res = await api<{ errors: Array<{ path: string }> }>('GET', `/networks?q=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e) => e.path)).toEqual(['q']);
    }
  });

  it('defaults to 50 per page and a null next_cursor on the last page', async () => {
    const res = await api<Page<Network>>('GET', '/networks');
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(50);
    if (res.body.items.length < 50) expect(res.body.next_cursor).toBeNull();
  });

  it.each(['0', '201', 'abc', '1.5', '-1'])('rejects limit=%s with 400', async (limit) => {
    const res = await api<{ errors: Array<{ path: string }> }>('GET', `/networks?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.path).toBe('limit');
  });

  it('rejects a tampered cursor and a cursor from another list with 400', async () => {
    for (let i = 0; i < 2; i++) await createNetwork(`Cursor ${i}`);
    const first = await api<Page<Network>>('GET', '/networks?limit=1');
    const cursor = first.body.next_cursor!;
    expect(cursor).toBeTruthy();
    const [body, mac] = cursor.split('.');
    const forged = `${Buffer.from('net_zzzzzzzzzzzzzzzzzzzzzzzzzz').toString('base64url')}.${mac}`;
    expect(body).not.toBe(forged.split('.')[0]);
    for (const bad of [forged, 'garbage', `${cursor}x`]) {
      const res = await api<{ detail: string }>('GET', `/networks?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/cursor/i);
    }
    const network = first.body.items[0]!;
    const foreign = await api('GET', `/networks/${network.id}/events?cursor=${encodeURIComponent(cursor)}`);
    expect(foreign.status).toBe(400);
  });

  it('updates with optimistic locking: If-Match, body version, 409 on a stale version', async () => {
    const network = await createNetwork('Lockable');
    const ok = await api<Network>('PATCH', `/networks/${network.id}`, { body: { name: 'Locked once' }, headers: { 'if-match': '"1"' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Locked once', version: 2 });
    expect(ok.headers.get('etag')).toBe('"2"');

    const stale = await api<{ detail: string }>('PATCH', `/networks/${network.id}`, { body: { name: 'Stale', version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/version/);

    const staleHeader = await api('PATCH', `/networks/${network.id}`, { body: { name: 'Stale' }, headers: { 'if-match': '"1"' } });
    expect(staleHeader.status).toBe(409);

    const byBody = await api<Network>('PATCH', `/networks/${network.id}`, { body: { name: 'Locked twice', version: 2 } });
    expect(byBody.status).toBe(200);
    expect(byBody.body.version).toBe(3);
  });

  it('lets exactly one of ten concurrent writers of the same version win', async () => {
    const network = await createNetwork('Contended');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('PATCH', `/networks/${network.id}`, { body: { name: `Writer ${i}` }, headers: { 'if-match': '"1"' } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const final = await api<Network>('GET', `/networks/${network.id}`);
    expect(final.body.version).toBe(2);
  });

  it('answers 404 for an unknown network id', async () => {
    const res = await api<{ type: string }>('GET', '/networks/net_00000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body.type).toMatch(/\/errors\/not-found$/);
  });
});

describe('bad input is a 4xx envelope, never a 500', () => {
  it('blank name → 400 naming the field', async () => {
    const res = await api<{ errors: Array<{ path: string; message: string }>; detail: string }>('POST', '/networks', {
      body: { name: '   ' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'name', message: 'name must not be blank.' }]);
  });

  it('wrong type → 400 (no silent coercion of 123 to "123")', async () => {
    const res = await api('POST', '/networks', { body: { name: 123 } });
    expect(res.status).toBe(400);
  });

  it('unknown field → 400 naming it', async () => {
    const res = await api<{ errors: Array<{ message: string }> }>('POST', '/networks', { body: { name: 'x', colour: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.message).toMatch(/colour/);
  });

  it('invalid JSON → 400', async () => {
    const res = await api<{ detail: string }>('POST', '/networks', { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/not valid JSON/);
  });

  it('a POST with no body counts as {} (here: name is required)', async () => {
    const res = await api<{ errors: Array<{ path: string }> }>('POST', '/networks');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.path).toBe('name');
  });

  it('a body over 1 MiB → 413', async () => {
    const res = await api('POST', '/networks', { body: { name: 'x'.repeat(1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('a client still sending an oversized body reads the 413, without a connection reset, and can go on', async () => {
    // Keep-alive, one socket at a time, as a typical integration's HTTP client. The body goes out in
    // two parts with a pause between, so the server has refused it before the client is done.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (parts: Buffer[], chunked: boolean) =>
      new Promise<{ status: number; body: string; errors: string[] }>((resolve) => {
        const length = parts.reduce((n, p) => n + p.length, 0);
        const req = request(`${inject('baseUrl')}/v1/networks`, {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${inject('superToken')}`,
            'content-type': 'application/json',
            ...(chunked ? {} : { 'content-length': String(length) }),
          },
        });
        const errors: string[] = [];
        let answer: { status: number; body: string } | undefined;
        let sent = false;
        const settle = () => answer && sent && resolve({ ...answer, errors });
        setTimeout(
          () => resolve({ status: answer?.status ?? 0, body: answer?.body ?? '', errors: [...errors, 'not done within 10 s'] }),
          10_000,
        ).unref();
        req.on('error', (error) => {
          errors.push(String(error));
          resolve({ status: answer?.status ?? 0, body: answer?.body ?? '', errors });
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c));
          res.on('end', () => {
            answer = { status: res.statusCode!, body: text };
            settle();
          });
        });
        void (async () => {
          for (const [i, part] of parts.entries()) {
            if (i > 0) await new Promise((r) => setTimeout(r, 300));
            for (let at = 0; at < part.length; at += 65_536) req.write(part.subarray(at, at + 65_536));
          }
          req.end(() => {
            sent = true;
            settle();
          });
        })();
      });
    try {
      const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }));
      const parts = [body.subarray(0, 2 * 1024 * 1024), body.subarray(2 * 1024 * 1024)];
      for (const chunked of [true, false]) {
        const refused = await post(parts, chunked);
        expect(refused.errors).toEqual([]);
        expect(refused.status).toBe(413);
        expect(JSON.parse(refused.body)).toMatchObject({ status: 413 });
      }
      const next = await post([Buffer.from(JSON.stringify({ name: 'After a 413' }))], false);
      expect(next.status).toBe(201);
    } finally {
      agent.destroy();
    }
  });

  it('counts name length in characters, as the document does: 200 emoji fit, 201 do not', async () => {
    // 😀 is one character (code point) and two UTF-16 units; JSON Schema's maxLength counts characters.
    const fits = await api<Network>('POST', '/networks', { body: { name: '😀'.repeat(200) } });
    expect(fits.status).toBe(201);
    expect(fits.body.name).toBe('😀'.repeat(200));
    const tooLong = await api<{ errors: Array<{ path: string; message: string }> }>('POST', '/networks', { body: { name: '😀'.repeat(201) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ path: 'name', message: 'name must be at most 200 characters.' }]);
    const doc = (await (await fetch(`${inject('baseUrl')}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, { maxLength?: number }> } }> } } }
      >;
    };
    expect(doc.paths['/networks']!.post.requestBody.content['application/json']!.schema.properties.name!.maxLength).toBe(200);
  });

  it('a non-JSON content type → 415', async () => {
    const res = await api('POST', '/networks', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
  });

  it('an unknown route → the 404 envelope', async () => {
    const res = await api<{ type: string; detail: string }>('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.type).toMatch(/\/errors\/not-found$/);
  });

  it('never shows a stack trace or SQL in detail', async () => {
    const res = await api('GET', `/networks/${"x' or 1=1 --"}`);
    expect([400, 404]).toContain(res.status);
    expect(res.text).not.toMatch(/select|stack|at \w+ \(/i);
  });
});
