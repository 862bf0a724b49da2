/**
 * What the fuzz (tests/reliability/fuzz.test.ts) found, pinned down as plain
 * HTTP tests so `npm test` keeps them fixed. See docs/RELIABILITY.md, findings.
 */
import { describe, expect, inject, it } from 'vitest';
import { api, type Problem } from '@/tests/support/api';
import { adInventory, grantedConsentRow, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

async function newNetwork(): Promise<{ id: string; version: number }> {
  const res = await api<{ id: string; version: number }>('POST', '/networks', { body: { name: 'Fuzz regressions' } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('a request body that is JSON but not an object', () => {
  it.each(['null', 'false', '0', '[]', '"name"', '[{"name":"x"}]'])('%s is a 400, and changes nothing', async (raw) => {
    const network = await newNetwork();
    const res = await api<Problem>('PATCH', `/networks/${network.id}`, { rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toBe('The request body must be a JSON object.');
    const after = await api<{ version: number }>('GET', `/networks/${network.id}`);
    expect(after.body.version).toBe(network.version);

    const create = await api<Problem>('POST', '/networks', { rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(create.status).toBe(400);
  });

  it('an empty body still counts as {}', async () => {
    const network = await newNetwork();
    const res = await api('PATCH', `/networks/${network.id}`, { rawBody: '' });
    expect(res.status).toBe(200);
  });
});

describe('the NUL character (Postgres text cannot hold it)', () => {
  it('in a body string is a 400, not a 500', async () => {
    const network = await newNetwork();
    const res = await api<Problem>('POST', `/networks/${network.id}/advertisers`, { body: { name: 'a\u0000b' } });
    expect(res.status).toBe(400);
    expect(res.body.type).toMatch(/\/errors\/bad-request$/);
    const nested = await api<Problem>('POST', '/apikeys', { body: { key_name: 'k', scopes: [{ network_id: `net_\u0000`, role: 'read_only' }] } });
    expect(nested.status).toBe(400);
  });

  it('in a query parameter or a path is a 400, not a 500', async () => {
    const network = await newNetwork();
    for (const path of [
      `/networks/${network.id}/offers?campaign_id=a%00`,
      `/networks/${network.id}/audit-log?action=a%00`,
      `/networks/${network.id}/advertisers/adv_%00`,
      `/networks/%00`,
    ]) {
      const res = await api<Problem>('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('a body nested deeper than any operation takes (a probe found it a 500 for anyone)', () => {
  // 40 kB, far under the 1 MiB limit: an object holding 20,000 nested arrays.
  const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;

  it('is a 400 on /v1, with a key or without, and on an unknown path', async () => {
    for (const [path, token] of [
      ['/networks', undefined],
      ['/networks', null],
      ['/no-such-operation', null],
    ] as const) {
      const res = await api<Problem>('POST', path, { token, rawBody: deep, headers: { 'content-type': 'application/json' } });
      expect(res.status, `${path} ${token === null ? 'without a key' : 'with a key'}`).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.detail).toMatch(/more than 32 levels deep/);
    }
  });

  it('is a 400 on the console transport too', async () => {
    const res = await fetch(`${inject('baseUrl')}/api/trpc/advertisers.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('superToken')}`, 'content-type': 'application/json' },
      body: deep,
    });
    const body = (await res.json()) as { error: { data: { problem: { status: number; detail: string } } } };
    expect(res.status).toBe(400);
    expect(body.error.data.problem.detail).toMatch(/more than 32 levels deep/);
  });
});

describe('a body field or query parameter named like a path parameter', () => {
  it('is an unknown field (400), not silently replaced by the path’s value', async () => {
    const network = await newNetwork();
    const other = await newNetwork();
    const res = await api<Problem>('PATCH', `/networks/${network.id}`, { body: { networkId: other.id, name: 'Renamed' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '(body)', message: 'Unknown field(s): networkId.' }]);
    const after = await api<{ name: string; version: number }>('GET', `/networks/${network.id}`);
    expect(after.body.version).toBe(network.version);

    const { advertiser } = await adInventory(network.id);
    const list = await api<Problem>('GET', `/networks/${network.id}/campaigns?networkId=${other.id}`);
    expect(list.status).toBe(400);
    expect(list.body.detail).toMatch(/Unknown field\(s\): networkId/);
    const read = await api<Problem>('GET', `/networks/${network.id}/advertisers/${advertiser.id}?advertiserId=x`);
    expect(read.status).toBe(400);
  });
});

describe('preview of a campaign with nothing speakable in it', () => {
  it('is a 409 about the campaign, not a 502 that says to retry', async () => {
    const network = await newNetwork();
    const { advertiser, podcast } = await adInventory(network.id);
    await grantedConsentRow(network.id, podcast); // the host's voice may speak: what is refused is the script
    const campaign = await api<{ id: string }>('POST', `/networks/${network.id}/campaigns`, {
      body: { name: '\u0001\u0002', advertiser_id: advertiser.id },
    });
    expect(campaign.status).toBe(201);
    const res = await api<Problem>('POST', `/networks/${network.id}/campaigns/${campaign.body.id}/preview`, { body: { podcast_id: podcast.id } });
    expect(res.status).toBe(409);
    expect(res.body.type).toMatch(/\/errors\/conflict$/);
    expect(res.body.detail).not.toMatch(/retry/i);
  });
});

describe('the document lists every status the operations answer with', () => {
  it('202 for redeliver and recover, 409 for audio that is not ready, 502 for a preview', async () => {
    const doc = (await api<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>('GET', '/openapi.json')).body;
    const responses = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses);
    expect(responses('/networks/{networkId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 'post')).toContain('202');
    expect(responses('/networks/{networkId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 'post')).not.toContain('200');
    expect(responses('/networks/{networkId}/webhooks/{webhookId}/recover', 'post')).toContain('202');
    expect(responses('/networks/{networkId}/creatives/{creativeId}/audio', 'get')).toContain('409');
    expect(responses('/networks/{networkId}/campaigns/{campaignId}/preview', 'post')).toContain('502');
  });
});

describe('the console transport', () => {
  it('refuses a NUL in the input with 400 too (it never reaches Postgres)', async () => {
    const network = await newNetwork();
    const res = await fetch(`${inject('baseUrl')}/api/trpc/advertisers.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('superToken')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ networkId: network.id, name: 'a\u0000b' }),
    });
    const body = (await res.json()) as { error: { data: { problem: { status: number; detail: string } } } };
    expect(res.status).toBe(400);
    expect(body.error.data.problem.status).toBe(400);
    expect(body.error.data.problem.detail).toMatch(/NUL character/);
  });
});
