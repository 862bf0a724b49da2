import { describe, expect, it } from 'vitest';
import { api } from '@/tests/support/api';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Hit {
  type: string;
  id: string;
  name: string;
  detail: string | null;
}

async function created(path: string, body: unknown): Promise<{ id: string }> {
  const res = await api<{ id: string }>('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A network with a little of everything, and keys of both roles on it. */
async function seededNetwork(label: string) {
  const network = await createNetworkRow();
  const n = network.id;
  const acme = await created(`/networks/${n}/advertisers`, { name: `Acme ${label}`, website: 'https://acme.example' });
  const gone = await created(`/networks/${n}/advertisers`, { name: `Acme Gone ${label}` });
  expect((await api('DELETE', `/networks/${n}/advertisers/${gone.id}`)).status).toBe(200);
  const spring = await created(`/networks/${n}/campaigns`, { name: 'Spring sale', advertiser_id: acme.id, script: 'Buy now.' });
  const springish = await created(`/networks/${n}/campaigns`, { name: 'Big spring sale', advertiser_id: acme.id, script: 'Buy now.' });
  const percent = await created(`/networks/${n}/campaigns`, { name: '50% off', advertiser_id: acme.id, script: 'Buy now.' });
  const podcast = await created(`/networks/${n}/podcasts`, { name: 'Morning Commute', host_name: 'Sam Rivera' });
  const webhook = await created(`/networks/${n}/webhooks`, {
    url: 'https://93.184.216.10/acme',
    events: ['offer.accepted'],
    description: 'Acme CRM',
  });
  const admin = await personKey([{ networkId: n, role: 'administrator' }], { name: 'Acme deploy key' });
  const reader = await personKey([{ networkId: n, role: 'read_only' }]);
  return { n, acme, gone, spring, springish, percent, podcast, webhook, admin, reader };
}

async function search(n: string, q: string, token?: string) {
  const res = await api<{ items: Hit[] }>('GET', `/networks/${n}/search?q=${encodeURIComponent(q)}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

describe('GET /networks/{n}/search', () => {
  it('finds by name in any case, by host and by exact id, best matches first', async () => {
    const s = await seededNetwork('one');
    const springs = await search(s.n, 'SPRING', s.reader.token);
    expect(springs.map((h) => [h.type, h.id])).toEqual([
      ['campaign', s.spring.id], // starts with the text
      ['campaign', s.springish.id], // contains it
    ]);
    expect(springs[0]!.detail).toBe('draft');
    expect((await search(s.n, 'rivera', s.reader.token)).map((h) => [h.type, h.id, h.detail])).toEqual([
      ['podcast', s.podcast.id, 'Host: Sam Rivera'],
    ]);
    expect((await search(s.n, s.podcast.id, s.reader.token)).map((h) => h.id)).toEqual([s.podcast.id]);
    // LIKE's own characters are text: "%" finds the campaign with a percent sign, not everything.
    expect((await search(s.n, '%', s.reader.token)).map((h) => h.id)).toEqual([s.percent.id]);
    expect(await search(s.n, '_', s.reader.token)).toEqual([]);
    // A deleted advertiser is not found.
    expect((await search(s.n, 'acme', s.reader.token)).filter((h) => h.type === 'advertiser').map((h) => h.id)).toEqual([s.acme.id]);
  });

  it('finds keys and webhooks for administrators only, and nothing of another network', async () => {
    const a = await seededNetwork('a');
    const b = await seededNetwork('b');
    const asReader = await search(a.n, 'acme', a.reader.token);
    expect(asReader.map((h) => h.type).sort()).toEqual(['advertiser']);
    const asAdmin = await search(a.n, 'acme', a.admin.token);
    expect(asAdmin.map((h) => [h.type, h.id])).toEqual([
      ['advertiser', a.acme.id],
      ['api_key', a.admin.key.id],
      ['webhook', a.webhook.id],
    ]);
    expect(asAdmin.find((h) => h.type === 'webhook')).toMatchObject({ name: 'Acme CRM', detail: 'https://93.184.216.10/acme' });
    expect(JSON.stringify(asAdmin)).not.toContain(a.admin.token);
    // B's objects by name or by id: not through A, whoever asks.
    expect(JSON.stringify(await search(a.n, 'acme b'))).toBe('[]');
    expect(await search(a.n, b.spring.id)).toEqual([]);
    expect(await search(a.n, b.admin.key.id)).toEqual([]);
    expect((await api('GET', `/networks/${b.n}/search?q=acme`, { token: a.admin.token })).status).toBe(403);
  });

  it('answers 400 for a missing, empty or overlong q and a bad limit', async () => {
    const network = await createNetworkRow();
    for (const query of ['', '?q=', '?q=%20%20', `?q=${'x'.repeat(101)}`, '?q=a&limit=0', '?q=a&limit=21', '?q=a&colour=red']) {
      const res = await api<{ status: number; detail: string }>('GET', `/networks/${network.id}/search${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });
});
