import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { events } from '@/db/schema';
import { VOICE_PRESETS } from '@/server/services/podcasts/voices';
import { api, type Page, type Problem } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Podcast {
  id: string;
  network_id: string;
  name: string;
  host_name: string;
  voice: string;
  rss_url: string | null;
  opt_in_status: 'not_opted_in' | 'opted_in' | 'opted_out';
  opted_in_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}
interface Event {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

type Net = Awaited<ReturnType<typeof networkWithKeys>>;

async function createPodcast(n: Net, body: Record<string, unknown> = {}) {
  const res = await api<Podcast>('POST', `/networks/${n.id}/podcasts`, { token: n.admin, body: { name: 'Daily Brew', host_name: 'Sam', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** POST with no body and no Content-Type, as `curl -X POST` sends it. */
async function bareBodyPost(n: Net, path: string, token = n.admin) {
  return api<Podcast>('POST', `/networks/${n.id}${path}`, { token });
}

async function optinEvents(n: Net) {
  const res = await api<Page<Event>>('GET', `/networks/${n.id}/events?type=optin.completed`, { token: n.admin });
  expect(res.status).toBe(200);
  return res.body.items;
}

// Creating and reading back, and bad input on create and update: tests/http/network-resources.test.ts.
describe('creating and reading podcasts', () => {
  it('accepts every voice preset', async () => {
    const n = await networkWithKeys();
    for (const voice of VOICE_PRESETS) expect((await createPodcast(n, { voice })).voice).toBe(voice);
  });

  it('refuses opt_in_status on create with 400: only opting in or out sets it', async () => {
    const n = await networkWithKeys();
    const unknown = await api<Problem>('POST', `/networks/${n.id}/podcasts`, {
      token: n.admin,
      body: { name: 'P', host_name: 'H', opt_in_status: 'opted_in' },
    });
    expect(unknown.status).toBe(400);
  });

  it('403 for writes with a read_only key and for another network; 404 for unknown and foreign ids', async () => {
    const n = await networkWithKeys();
    const other = await networkWithKeys();
    const mine = await createPodcast(n);
    const foreign = await createPodcast(other);
    expect((await api('POST', `/networks/${n.id}/podcasts`, { token: n.reader, body: { name: 'P', host_name: 'H' } })).status).toBe(403);
    expect((await api('PATCH', `/networks/${n.id}/podcasts/${mine.id}`, { token: n.reader, body: { name: 'X' } })).status).toBe(403);
    expect((await bareBodyPost(n, `/podcasts/${mine.id}/opt-in`, n.reader)).status).toBe(403);
    expect((await bareBodyPost(n, `/podcasts/${mine.id}/opt-out`, n.reader)).status).toBe(403);
    expect((await api('GET', `/networks/${n.id}/podcasts`, { token: other.admin })).status).toBe(403);
    const missing = await api<Problem>('GET', `/networks/${n.id}/podcasts/pod_00000000000000000000000000`, { token: n.admin });
    expect(missing.status).toBe(404);
    expect(missing.body.type).toMatch(/\/errors\/not-found$/);
    expect((await api('GET', `/networks/${n.id}/podcasts/${foreign.id}`, { token: n.admin })).status).toBe(404);
    expect((await api('PATCH', `/networks/${n.id}/podcasts/${foreign.id}`, { token: n.admin, body: { name: 'X' } })).status).toBe(404);
    expect((await bareBodyPost(n, `/podcasts/${foreign.id}/opt-in`)).status).toBe(404);
    expect((await bareBodyPost(n, `/podcasts/${foreign.id}/opt-out`)).status).toBe(404);
    expect(await optinEvents(other)).toEqual([]);
  });

  it('lists in id order with a cursor', async () => {
    const n = await networkWithKeys();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createPodcast(n, { name: `Show ${i}` }));
    const page1 = await api<Page<Podcast>>('GET', `/networks/${n.id}/podcasts?limit=2`, { token: n.reader });
    expect(page1.body.items.map((p) => p.id)).toEqual([made[0]!.id, made[1]!.id]);
    const page2 = await api<Page<Podcast>>('GET', `/networks/${n.id}/podcasts?limit=2&cursor=${encodeURIComponent(page1.body.next_cursor!)}`, {
      token: n.reader,
    });
    expect(page2.body.items.map((p) => p.id)).toEqual([made[2]!.id]);
    expect(page2.body.next_cursor).toBeNull();
    expect((await api('GET', `/networks/${n.id}/podcasts?cursor=garbage`, { token: n.reader })).status).toBe(400);
  });
});

describe('updating podcasts', () => {
  it('updates with If-Match, bumps version and ETag; a stale version is 409', async () => {
    const n = await networkWithKeys();
    const p = await createPodcast(n, { rss_url: 'https://feeds.example/a.xml' });
    const path = `/networks/${n.id}/podcasts/${p.id}`;
    const res = await api<Podcast>('PATCH', path, {
      token: n.admin,
      body: { name: 'Evening Brew', host_name: 'Alex', voice: 'warm', rss_url: null },
      headers: { 'if-match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Evening Brew', host_name: 'Alex', voice: 'warm', rss_url: null, version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
    const stale = await api<Problem>('PATCH', path, { token: n.admin, body: { name: 'X', version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/version/);
  });
});

describe('opting in and out', () => {
  it('opt-in with no body answers 200, sets opted_in_at and records one optin.completed with client-facing data', async () => {
    const n = await networkWithKeys();
    const p = await createPodcast(n, { name: 'Daily Brew', host_name: 'Sam' });
    const res = await bareBodyPost(n, `/podcasts/${p.id}/opt-in`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, opt_in_status: 'opted_in', version: 2 });
    expect(res.body.opted_in_at).toEqual(expect.any(String));
    expect(res.headers.get('etag')).toBe('"2"');

    const again = await bareBodyPost(n, `/podcasts/${p.id}/opt-in`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);

    const recorded = await optinEvents(n);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.data).toEqual({ podcast_id: p.id, name: 'Daily Brew', host_name: 'Sam' });
  });

  it('also accepts an empty JSON body; unknown fields are 400', async () => {
    const n = await networkWithKeys();
    const p = await createPodcast(n);
    expect((await api('POST', `/networks/${n.id}/podcasts/${p.id}/opt-in`, { token: n.admin, body: { force: true } })).status).toBe(400);
    expect((await api('POST', `/networks/${n.id}/podcasts/${p.id}/opt-in`, { token: n.admin, body: {} })).status).toBe(200);
  });

  it('10 concurrent opt-ins record exactly one event', async () => {
    const n = await networkWithKeys();
    const p = await createPodcast(n);
    const answers = await Promise.all(Array.from({ length: 10 }, () => bareBodyPost(n, `/podcasts/${p.id}/opt-in`)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.version))).toEqual(new Set([2]));
    expect(await optinEvents(n)).toHaveLength(1);
    const rows = await database()
      .select()
      .from(events)
      .where(and(eq(events.networkId, n.id), eq(events.type, 'optin.completed')));
    expect(rows).toHaveLength(1);
  });

  it('opt-out with no body clears opted_in_at and is idempotent; opting in again is a new opt-in', async () => {
    const n = await networkWithKeys();
    const p = await createPodcast(n);
    await bareBodyPost(n, `/podcasts/${p.id}/opt-in`);
    const out = await bareBodyPost(n, `/podcasts/${p.id}/opt-out`);
    expect(out.status, out.text).toBe(200);
    expect(out.body).toMatchObject({ opt_in_status: 'opted_out', opted_in_at: null, version: 3 });
    const outAgain = await bareBodyPost(n, `/podcasts/${p.id}/opt-out`);
    expect(outAgain.status).toBe(200);
    expect(outAgain.body.version).toBe(3);
    const back = await bareBodyPost(n, `/podcasts/${p.id}/opt-in`);
    expect(back.body).toMatchObject({ opt_in_status: 'opted_in', version: 4 });
    expect(await optinEvents(n)).toHaveLength(2);
  });

  it('a podcast that never opted in can opt out', async () => {
    const n = await networkWithKeys();
    const p = await createPodcast(n);
    const out = await bareBodyPost(n, `/podcasts/${p.id}/opt-out`);
    expect(out.status).toBe(200);
    expect(out.body.opt_in_status).toBe('opted_out');
    expect(await optinEvents(n)).toEqual([]);
  });
});
