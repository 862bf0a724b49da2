import { describe, expect, it } from 'vitest';
import { api, type Page, type Problem } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Advertiser {
  id: string;
  network_id: string;
  name: string;
  website: string | null;
  contact_email: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

async function createAdvertiser(n: { id: string; admin: string }, body: Record<string, unknown> = { name: 'Acme' }) {
  const res = await api<Advertiser>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body });
  expect(res.status).toBe(201);
  return res.body;
}

// Creating and reading back, and bad input on create and update: tests/http/network-resources.test.ts.
describe('creating and reading advertisers', () => {
  it('refuses an unknown field with 400 naming it', async () => {
    const n = await networkWithKeys();
    const unknown = await api<Problem>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body: { name: 'A', phone: '123' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0]!.message).toMatch(/phone/);
  });

  it('403 for writes with a read_only key; 403 for a network outside the key’s scopes', async () => {
    const n = await networkWithKeys();
    const other = await networkWithKeys();
    const adv = await createAdvertiser(n);
    expect((await api('POST', `/networks/${n.id}/advertisers`, { token: n.reader, body: { name: 'X' } })).status).toBe(403);
    expect((await api('PATCH', `/networks/${n.id}/advertisers/${adv.id}`, { token: n.reader, body: { name: 'X' } })).status).toBe(403);
    expect((await api('DELETE', `/networks/${n.id}/advertisers/${adv.id}`, { token: n.reader })).status).toBe(403);
    expect((await api('GET', `/networks/${n.id}/advertisers`, { token: other.admin })).status).toBe(403);
  });

  it('404 for an unknown id and for another network’s advertiser', async () => {
    const n = await networkWithKeys();
    const other = await networkWithKeys();
    const foreign = await createAdvertiser(other);
    const missing = await api<Problem>('GET', `/networks/${n.id}/advertisers/adv_00000000000000000000000000`, { token: n.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.type).toMatch(/\/errors\/not-found$/);
    expect((await api('GET', `/networks/${n.id}/advertisers/${foreign.id}`, { token: n.admin })).status).toBe(404);
    expect((await api('PATCH', `/networks/${n.id}/advertisers/${foreign.id}`, { token: n.admin, body: { name: 'Mine' } })).status).toBe(404);
    expect((await api('DELETE', `/networks/${n.id}/advertisers/${foreign.id}`, { token: n.admin })).status).toBe(404);
  });

  it('lists in id order with a cursor; a cursor of another network’s list is 400', async () => {
    const n = await networkWithKeys();
    const other = await networkWithKeys();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createAdvertiser(n, { name: `Adv ${i}` }));
    await createAdvertiser(other);
    const page1 = await api<Page<Advertiser>>('GET', `/networks/${n.id}/advertisers?limit=2`, { token: n.reader });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((a) => a.id)).toEqual([made[0]!.id, made[1]!.id]);
    const cursor = encodeURIComponent(page1.body.next_cursor!);
    const page2 = await api<Page<Advertiser>>('GET', `/networks/${n.id}/advertisers?limit=2&cursor=${cursor}`, { token: n.reader });
    expect(page2.body.items.map((a) => a.id)).toEqual([made[2]!.id]);
    expect(page2.body.next_cursor).toBeNull();
    expect((await api('GET', `/networks/${other.id}/advertisers?cursor=${cursor}`, { token: other.admin })).status).toBe(400);
    expect((await api('GET', `/networks/${n.id}/advertisers?limit=0`, { token: n.admin })).status).toBe(400);
  });
});

describe('updating advertisers', () => {
  it('updates with If-Match, bumps version and ETag; null clears optional fields', async () => {
    const n = await networkWithKeys();
    const adv = await createAdvertiser(n, { name: 'Acme', website: 'https://acme.example' });
    const res = await api<Advertiser>('PATCH', `/networks/${n.id}/advertisers/${adv.id}`, {
      token: n.admin,
      body: { name: 'Acme Ltd', website: null, contact_email: 'a@acme.example' },
      headers: { 'if-match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Acme Ltd', website: null, contact_email: 'a@acme.example', version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
  });

  it('a stale version (If-Match or body) is 409; an empty PATCH changes nothing', async () => {
    const n = await networkWithKeys();
    const adv = await createAdvertiser(n);
    const path = `/networks/${n.id}/advertisers/${adv.id}`;
    expect((await api('PATCH', path, { token: n.admin, body: { name: 'B', version: 1 } })).status).toBe(200);
    const stale = await api<Problem>('PATCH', path, { token: n.admin, body: { name: 'C', version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/version/);
    expect((await api('PATCH', path, { token: n.admin, body: { name: 'C' }, headers: { 'if-match': '"1"' } })).status).toBe(409);
    const empty = await api<Advertiser>('PATCH', path, { token: n.admin, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.version).toBe(2);
  });
});

describe('deleting advertisers', () => {
  it('soft-deletes: 200 with deleted_at, then hidden from GET and lists', async () => {
    const n = await networkWithKeys();
    const keep = await createAdvertiser(n, { name: 'Keep' });
    const gone = await createAdvertiser(n, { name: 'Gone' });
    const res = await api<Advertiser>('DELETE', `/networks/${n.id}/advertisers/${gone.id}`, { token: n.admin, headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(200);
    expect(res.body.deleted_at).toEqual(expect.any(String));
    expect((await api('GET', `/networks/${n.id}/advertisers/${gone.id}`, { token: n.admin })).status).toBe(404);
    expect((await api('DELETE', `/networks/${n.id}/advertisers/${gone.id}`, { token: n.admin })).status).toBe(404);
    expect((await api('PATCH', `/networks/${n.id}/advertisers/${gone.id}`, { token: n.admin, body: { name: 'Back' } })).status).toBe(404);
    const list = await api<Page<Advertiser>>('GET', `/networks/${n.id}/advertisers`, { token: n.admin });
    expect(list.body.items.map((a) => a.id)).toEqual([keep.id]);
  });

  it('a stale If-Match on DELETE is 409', async () => {
    const n = await networkWithKeys();
    const adv = await createAdvertiser(n);
    await api('PATCH', `/networks/${n.id}/advertisers/${adv.id}`, { token: n.admin, body: { name: 'Renamed' } });
    expect((await api('DELETE', `/networks/${n.id}/advertisers/${adv.id}`, { token: n.admin, headers: { 'if-match': '"1"' } })).status).toBe(409);
  });

  it('is refused with 409 while a campaign is draft, active or paused; allowed once all are completed or archived', async () => {
    const n = await networkWithKeys();
    const adv = await createAdvertiser(n);
    const path = `/networks/${n.id}/advertisers/${adv.id}`;
    const a = await api<{ id: string }>('POST', `/networks/${n.id}/campaigns`, { token: n.admin, body: { name: 'A', advertiser_id: adv.id } });
    const b = await api<{ id: string }>('POST', `/networks/${n.id}/campaigns`, {
      token: n.admin,
      body: { name: 'B', advertiser_id: adv.id, status: 'active' },
    });
    const blocked = await api<Problem>('DELETE', path, { token: n.admin });
    expect(blocked.status).toBe(409);
    expect(blocked.body.detail).toMatch(/campaign/);

    await api('PATCH', `/networks/${n.id}/campaigns/${a.body.id}`, { token: n.admin, body: { status: 'archived' } });
    await api('PATCH', `/networks/${n.id}/campaigns/${b.body.id}`, { token: n.admin, body: { status: 'paused' } });
    expect((await api('DELETE', path, { token: n.admin })).status).toBe(409);
    await api('PATCH', `/networks/${n.id}/campaigns/${b.body.id}`, { token: n.admin, body: { status: 'completed' } });
    expect((await api('DELETE', path, { token: n.admin })).status).toBe(200);

    // The campaigns stay readable; a deleted advertiser takes no new campaigns.
    expect((await api('GET', `/networks/${n.id}/campaigns/${b.body.id}`, { token: n.admin })).status).toBe(200);
    const late = await api<Problem>('POST', `/networks/${n.id}/campaigns`, { token: n.admin, body: { name: 'C', advertiser_id: adv.id } });
    expect(late.status).toBe(400);
    expect(late.body.errors![0]!.path).toBe('advertiser_id');
  });
});
