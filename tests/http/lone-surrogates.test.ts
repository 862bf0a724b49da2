/**
 * A lone UTF-16 surrogate ("\ud800" in JSON, without its pair) is not text. An outside probe found
 * it a 500 in `key_name` and a service account's `name` on both transports (the audit log's jsonb
 * refuses it). Now it is a 400 in the error envelope wherever a request carries text: the body, the
 * URL, a header, on /v1 and on /api/trpc (server/http/body.ts).
 */
import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { api, type Problem } from '@/tests/support/api';

const LONE = '\ud800';

async function newNetwork(): Promise<string> {
  const res = await api<{ id: string }>('POST', '/networks', { body: { name: 'Surrogates' } });
  expect(res.status).toBe(201);
  return res.body.id;
}

function expectRefused(res: { status: number; headers: Headers; body: Problem }, what: string) {
  expect(res.status, what).toBe(400);
  expect(res.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
  expect(res.body.type, what).toMatch(/\/errors\/bad-request$/);
}

/** A GET with one header whose value is these exact bytes (fetch would not send them as they are). */
function getWithHeaderBytes(path: string, name: string, bytes: Buffer): Promise<{ status: number; contentType: string; body: Problem }> {
  const url = new URL(`${inject('baseUrl')}${path}`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      // node writes a header string byte for byte (latin1), so these three bytes go out unchanged.
      { method: 'GET', headers: { authorization: `Bearer ${inject('superToken')}`, [name]: bytes.toString('latin1') } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            contentType: String(res.headers['content-type']),
            body: JSON.parse(Buffer.concat(chunks).toString()) as Problem,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** "\ud800" encoded as if it were a character (CESU-8 / WTF-8): ED A0 80. */
const SURROGATE_BYTES = Buffer.from([0xed, 0xa0, 0x80]);

describe('a lone UTF-16 surrogate', () => {
  it('in a body string or key on /v1 is a 400, not a 500 (key_name, a service account’s name, nested, a key)', async () => {
    const network = await newNetwork();
    for (const [path, body] of [
      ['/apikeys', { key_name: `key ${LONE}` }],
      [`/networks/${network}/service-accounts`, { name: `robot ${LONE}`, role: 'read_only' }],
      ['/apikeys', { key_name: 'k', scopes: [{ network_id: network, role: `read${LONE}` }] }],
      [`/networks/${network}/advertisers`, { name: 'low half alone \udc00' }],
      [`/networks/${network}/advertisers`, { name: 'a', [`field${LONE}`]: 1 }],
    ] as const) {
      const res = await api<Problem>('POST', path, { body });
      expectRefused(res, `${path} ${JSON.stringify(body)}`);
      expect(res.body.detail).toMatch(/lone UTF-16 surrogate/);
    }
    // A pair is one character, and welcome.
    const emoji = await api('POST', `/networks/${network}/advertisers`, { body: { name: 'Podcasts \ud83c\udf99\ufe0f' } });
    expect(emoji.status).toBe(201);
  });

  it('percent-encoded in a query parameter or the path on /v1 is a 400', async () => {
    const network = await newNetwork();
    for (const path of [
      `/networks/${network}/audit-log?action=a%ED%A0%80`,
      `/networks/${network}/advertisers/adv_%ED%B0%80`,
      `/networks/${network}/offers?status=%FF`,
    ]) {
      const res = await api<Problem>('GET', path);
      expectRefused(res, path);
      expect(res.body.detail).toMatch(/not percent-encoded UTF-8/);
    }
    // Percent-encoded UTF-8 is text: a real character passes.
    expect((await api('GET', `/networks/${network}/audit-log?action=caf%C3%A9`)).status).toBe(200);
  });

  it('in a header value is a 400 on /v1 and on /api/trpc', async () => {
    for (const path of ['/v1/me', '/api/trpc/me.get']) {
      const res = await getWithHeaderBytes(path, 'x-note', SURROGATE_BYTES);
      expect(res.status, path).toBe(400);
      const problem = path.startsWith('/v1') ? res.body : (res.body as unknown as { error: { data: { problem: Problem } } }).error.data.problem;
      expect(problem.status, path).toBe(400);
      expect(problem.detail, path).toMatch(/x-note header carries a UTF-16 surrogate/i);
    }
    // Other bytes above 0x7F in a header are opaque and left alone (latin1 é).
    expect((await getWithHeaderBytes('/v1/me', 'x-note', Buffer.from([0x63, 0x61, 0x66, 0xe9]))).status).toBe(200);
  });

  it('in the console transport’s input, a mutation body or a query’s ?input=, is a 400', async () => {
    const network = await newNetwork();
    const headers = { authorization: `Bearer ${inject('superToken')}`, 'content-type': 'application/json' };
    const post = await fetch(`${inject('baseUrl')}/api/trpc/serviceAccounts.create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ networkId: network, name: `robot ${LONE}`, role: 'read_only' }),
    });
    const get = await fetch(
      `${inject('baseUrl')}/api/trpc/advertisers.list?input=${encodeURIComponent(JSON.stringify({ networkId: network, cursor: LONE }))}`,
      {
        headers,
      },
    );
    for (const res of [post, get]) {
      const body = (await res.json()) as { error: { data: { problem: Problem } } };
      expect(res.status).toBe(400);
      expect(body.error.data.problem.detail).toMatch(/lone UTF-16 surrogate/);
    }
  });
});
