import { describe, expect, it } from 'vitest';
import { api, type Page, type Problem } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';
import { reportReliability } from '@/tests/support/reliability';

useTestDatabase();

interface Campaign {
  id: string;
  network_id: string;
  advertiser_id: string;
  name: string;
  script: string;
  status: string;
  starts_at: string | null;
  ends_at: string | null;
  budget_cents: number | null;
  currency: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A network with an administrator key, a read_only key and one advertiser. */
async function network() {
  const n = await networkWithKeys();
  const adv = await api<{ id: string }>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body: { name: 'Acme' } });
  expect(adv.status).toBe(201);
  return { ...n, advertiserId: adv.body.id };
}

type Net = Awaited<ReturnType<typeof network>>;

async function createCampaign(n: Net, body: Record<string, unknown> = {}) {
  const res = await api<Campaign>('POST', `/networks/${n.id}/campaigns`, {
    token: n.admin,
    body: { name: 'Spring', advertiser_id: n.advertiserId, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

function patch(n: Net, id: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return api<Campaign & Problem>('PATCH', `/networks/${n.id}/campaigns/${id}`, { token: n.admin, body, headers });
}

// Creating and reading back, and bad input on create and update: tests/http/network-resources.test.ts.
describe('creating and reading campaigns', () => {
  it('defaults: empty script, draft, no schedule or budget; may start active', async () => {
    const n = await network();
    const plain = await createCampaign(n);
    expect(plain).toMatchObject({ script: '', status: 'draft', starts_at: null, ends_at: null, budget_cents: null, currency: null });
    expect((await createCampaign(n, { status: 'active' })).status).toBe('active');
  });

  it('refuses an unknown field with 400; takes a script of up to 2,000 characters', async () => {
    const n = await network();
    expect(
      (await api('POST', `/networks/${n.id}/campaigns`, { token: n.admin, body: { name: 'C', advertiser_id: n.advertiserId, x: 1 } })).status,
    ).toBe(400);
    expect((await createCampaign(n, { script: 'x'.repeat(2000) })).script).toHaveLength(2000);
  });

  it('refuses an advertiser of another network, an unknown one and a deleted one with 400 on advertiser_id', async () => {
    const n = await network();
    const other = await network();
    const gone = await api<{ id: string }>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body: { name: 'Gone' } });
    expect((await api('DELETE', `/networks/${n.id}/advertisers/${gone.body.id}`, { token: n.admin })).status).toBe(200);
    for (const advertiserId of [other.advertiserId, 'adv_00000000000000000000000000', gone.body.id]) {
      const res = await api<Problem>('POST', `/networks/${n.id}/campaigns`, { token: n.admin, body: { name: 'C', advertiser_id: advertiserId } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: 'advertiser_id', message: expect.any(String) }]);
    }
  });

  it('403 for writes with a read_only key and for another network; 404 for unknown and foreign ids', async () => {
    const n = await network();
    const other = await network();
    const mine = await createCampaign(n);
    const foreign = await createCampaign(other);
    expect((await api('POST', `/networks/${n.id}/campaigns`, { token: n.reader, body: { name: 'C', advertiser_id: n.advertiserId } })).status).toBe(
      403,
    );
    expect((await api('PATCH', `/networks/${n.id}/campaigns/${mine.id}`, { token: n.reader, body: { name: 'X' } })).status).toBe(403);
    expect((await api('GET', `/networks/${n.id}/campaigns`, { token: other.admin })).status).toBe(403);
    const missing = await api<Problem>('GET', `/networks/${n.id}/campaigns/cmp_00000000000000000000000000`, { token: n.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.type).toMatch(/\/errors\/not-found$/);
    expect((await api('GET', `/networks/${n.id}/campaigns/${foreign.id}`, { token: n.admin })).status).toBe(404);
    expect((await patch(n, foreign.id, { name: 'Mine' })).status).toBe(404);
  });
});

describe('listing campaigns', () => {
  it('filters by status and advertiser, pages with a cursor bound to the filters', async () => {
    const n = await network();
    const second = await api<{ id: string }>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body: { name: 'Beta' } });
    const d1 = await createCampaign(n);
    const a1 = await createCampaign(n, { status: 'active' });
    const d2 = await createCampaign(n, { advertiser_id: second.body.id });
    const d3 = await createCampaign(n);
    const a2 = await createCampaign(n, { status: 'active', advertiser_id: second.body.id });

    const all = await api<Page<Campaign>>('GET', `/networks/${n.id}/campaigns`, { token: n.reader });
    expect(all.body.items.map((c) => c.id)).toEqual([d1.id, a1.id, d2.id, d3.id, a2.id]);

    const drafts1 = await api<Page<Campaign>>('GET', `/networks/${n.id}/campaigns?status=draft&limit=2`, { token: n.reader });
    expect(drafts1.body.items.map((c) => c.id)).toEqual([d1.id, d2.id]);
    const cursor = encodeURIComponent(drafts1.body.next_cursor!);
    const drafts2 = await api<Page<Campaign>>('GET', `/networks/${n.id}/campaigns?status=draft&limit=2&cursor=${cursor}`, { token: n.reader });
    expect(drafts2.body.items.map((c) => c.id)).toEqual([d3.id]);
    expect(drafts2.body.next_cursor).toBeNull();
    // The same cursor under other filters is refused.
    expect((await api('GET', `/networks/${n.id}/campaigns?status=active&limit=2&cursor=${cursor}`, { token: n.reader })).status).toBe(400);

    const ofSecond = await api<Page<Campaign>>('GET', `/networks/${n.id}/campaigns?advertiser_id=${second.body.id}`, { token: n.reader });
    expect(ofSecond.body.items.map((c) => c.id)).toEqual([d2.id, a2.id]);
    const both = await api<Page<Campaign>>('GET', `/networks/${n.id}/campaigns?advertiser_id=${second.body.id}&status=active`, { token: n.reader });
    expect(both.body.items.map((c) => c.id)).toEqual([a2.id]);

    expect((await api('GET', `/networks/${n.id}/campaigns?status=running`, { token: n.reader })).status).toBe(400);
    expect((await api('GET', `/networks/${n.id}/campaigns?colour=red`, { token: n.reader })).status).toBe(400);
  });
});

describe('updating campaigns', () => {
  it('updates fields with If-Match, bumps version and ETag; a stale version is 409', async () => {
    const n = await network();
    const c = await createCampaign(n);
    const res = await patch(n, c.id, { name: 'Summer', script: 'New copy', budget_cents: 100, currency: 'EUR' }, { 'if-match': '"1"' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Summer', script: 'New copy', budget_cents: 100, currency: 'EUR', version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
    const stale = await patch(n, c.id, { name: 'Autumn', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/version/);
    expect((await patch(n, c.id, { name: 'Autumn' }, { 'if-match': '"1"' })).status).toBe(409);
    expect((await patch(n, c.id, { name: 'Autumn', version: 2 })).status).toBe(200);
  });

  it('checks cross-field rules against the stored values', async () => {
    const n = await network();
    const c = await createCampaign(n, { starts_at: '2026-12-10T00:00:00Z', budget_cents: 100, currency: 'USD' });
    const early = await patch(n, c.id, { ends_at: '2026-12-01T00:00:00Z' });
    expect(early.status).toBe(400);
    expect(early.body.errors![0]!.path).toBe('ends_at');
    const noCurrency = await patch(n, c.id, { currency: null });
    expect(noCurrency.status).toBe(400);
    expect(noCurrency.body.errors![0]!.path).toBe('currency');
    const cleared = await patch(n, c.id, { budget_cents: null, currency: null, starts_at: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ budget_cents: null, currency: null, starts_at: null });
    expect((await patch(n, c.id, { advertiser_id: n.advertiserId })).status).toBe(400);
  });

  it('follows draft → active ↔ paused → completed | archived', async () => {
    const n = await network();
    const c = await createCampaign(n);
    for (const to of ['active', 'paused', 'active', 'paused', 'completed', 'archived']) {
      const res = await patch(n, c.id, { status: to });
      expect(res.status, `→ ${to}: ${res.text}`).toBe(200);
      expect(res.body.status).toBe(to);
    }
    const d = await createCampaign(n);
    expect((await patch(n, d.id, { status: 'archived' })).status).toBe(200);
    const a = await createCampaign(n, { status: 'active' });
    expect((await patch(n, a.id, { status: 'completed' })).status).toBe(200);
    const p = await createCampaign(n, { status: 'active' });
    await patch(n, p.id, { status: 'paused' });
    expect((await patch(n, p.id, { status: 'archived' })).status).toBe(200);
    // Same status is not a move.
    const s = await createCampaign(n, { status: 'active' });
    expect((await patch(n, s.id, { status: 'active' })).status).toBe(200);
  });

  it('refuses transitions the machine does not allow with 409 naming from and to', async () => {
    const n = await network();
    const refused: Array<[string[], string, string]> = [
      [[], 'paused', 'draft'],
      [[], 'completed', 'draft'],
      [['active', 'paused', 'completed'], 'active', 'completed'],
      [['active', 'completed'], 'paused', 'completed'],
      [['active'], 'draft', 'active'],
      [['archived'], 'active', 'archived'],
    ];
    for (const [path, to, from] of refused) {
      const c = await createCampaign(n);
      for (const step of path) expect((await patch(n, c.id, { status: step })).status).toBe(200);
      const res = await patch(n, c.id, { status: to });
      expect(res.status, `${from} → ${to}`).toBe(409);
      expect(res.body.detail).toContain(`from ${from} to ${to}`);
    }
    const bad = await createCampaign(n);
    expect((await patch(n, bad.id, { status: 'running' })).status).toBe(400);
  });

  it('an archived campaign cannot be changed (409)', async () => {
    const n = await network();
    const c = await createCampaign(n);
    await patch(n, c.id, { status: 'archived' });
    const res = await patch(n, c.id, { name: 'Revived' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/archived/);
  });
});

describe('concurrency', () => {
  it('of 10 concurrent PATCHes on the same version exactly one wins; the rest get 409', async () => {
    const n = await network();
    const c = await createCampaign(n);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => patch(n, c.id, { name: `Name ${i}`, version: 1 })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    const got = await api<Campaign>('GET', `/networks/${n.id}/campaigns/${c.id}`, { token: n.admin });
    expect(got.body.version).toBe(2);
    reportReliability('optimistic-locking-race', {
      claim: '10 concurrent PATCHes of one campaign on the same version: exactly one succeeds',
      figures: { requests: answers.length, '200': 1, '409': 9, 'final version': got.body.version },
    });
  });

  it('creating a campaign while its advertiser is deleted never leaves a live campaign of a deleted advertiser', async () => {
    for (let round = 0; round < 5; round++) {
      const n = await network();
      const [created, deleted] = await Promise.all([
        api<Campaign>('POST', `/networks/${n.id}/campaigns`, { token: n.admin, body: { name: 'Race', advertiser_id: n.advertiserId } }),
        api('DELETE', `/networks/${n.id}/advertisers/${n.advertiserId}`, { token: n.admin }),
      ]);
      // Either the campaign came first (delete refused) or the delete did (campaign refused).
      expect([
        [201, 409],
        [400, 200],
      ]).toContainEqual([created.status, deleted.status]);
    }
  });
});
