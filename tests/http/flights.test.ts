import { describe, expect, it } from 'vitest';
import { api, expectProblem, type Page, type Problem } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

interface Flight {
  id: string;
  network_id: string;
  campaign_id: string;
  name: string;
  status: 'scheduled' | 'live' | 'ended';
  starts_at: string;
  ends_at: string;
  placement: string;
  max_duration_seconds: number;
  pricing: { model: string; amount_cents: number; currency: string };
  impression_goal: number | null;
  external_order_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

const DAY = 86_400_000;
const at = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

/** The smallest valid flight: flat, pre-roll, from tomorrow for a week. */
const BASE = {
  name: 'Pre-roll',
  starts_at: at(1),
  ends_at: at(8),
  placement: 'pre',
  pricing: { model: 'flat', amount_cents: 250_000, currency: 'USD' },
};

/** A network with an administrator key, a read_only key, an advertiser and a campaign (without dates unless given). */
async function network(campaign: Record<string, unknown> = {}) {
  const n = await networkWithKeys();
  const adv = await api<{ id: string }>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body: { name: 'Acme' } });
  const cmp = await api<{ id: string }>('POST', `/networks/${n.id}/campaigns`, {
    token: n.admin,
    body: { name: 'Spring', advertiser_id: adv.body.id, ...campaign },
  });
  expect(cmp.status, cmp.text).toBe(201);
  return { ...n, advertiserId: adv.body.id, campaignId: cmp.body.id };
}

type Net = Awaited<ReturnType<typeof network>>;

const flightsOf = (n: Net, campaignId = n.campaignId) => `/networks/${n.id}/campaigns/${campaignId}/flights`;

function post(n: Net, body: Record<string, unknown>, campaignId = n.campaignId) {
  return api<Flight & Omit<Problem, 'status'>>('POST', flightsOf(n, campaignId), { token: n.admin, body: { ...BASE, ...body } });
}

async function createFlight(n: Net, body: Record<string, unknown> = {}, campaignId = n.campaignId) {
  const res = await post(n, body, campaignId);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

function patch(n: Net, id: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return api<Flight & Omit<Problem, 'status'>>('PATCH', `/networks/${n.id}/flights/${id}`, { token: n.admin, body, headers });
}

describe('creating and reading flights', () => {
  it('creates with 201, ETag "1" and the flight’s shape (max_duration_seconds 60 by default); reads it back with a read_only key', async () => {
    const n = await network();
    const res = await post(n, { external_order_id: '  IO-2026-114  ' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.id).toMatch(/^flt_[0-9a-z]{26}$/);
    expect(res.body).toEqual({
      id: res.body.id,
      network_id: n.id,
      campaign_id: n.campaignId,
      name: 'Pre-roll',
      status: 'scheduled',
      starts_at: BASE.starts_at,
      ends_at: BASE.ends_at,
      placement: 'pre',
      max_duration_seconds: 60,
      pricing: BASE.pricing,
      impression_goal: null,
      external_order_id: 'IO-2026-114',
      delivered_impressions: 0,
      pacing: null,
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
    });
    const read = await api<Flight>('GET', `/networks/${n.id}/flights/${res.body.id}`, { token: n.reader });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const cpm = await createFlight(n, {
      placement: 'mid',
      max_duration_seconds: 30,
      pricing: { model: 'cpm', amount_cents: 2500, currency: 'EUR' },
      impression_goal: 100_000,
    });
    expect(cpm).toMatchObject({
      placement: 'mid',
      max_duration_seconds: 30,
      pricing: { model: 'cpm', amount_cents: 2500, currency: 'EUR' },
      impression_goal: 100_000,
      // Scheduled: nothing delivered, nothing expected yet (docs/measurement.md, "Pacing").
      delivered_impressions: 0,
      pacing: { delivered: 0, expected_to_date: 0, ratio: null, status: 'on_track' },
    });
  });

  it('takes the bounds: 5 and 180 seconds, a free flat flight with a goal, a 200-character order id', async () => {
    const n = await network();
    expect((await createFlight(n, { max_duration_seconds: 5, placement: 'post' })).max_duration_seconds).toBe(5);
    expect((await createFlight(n, { max_duration_seconds: 180 })).max_duration_seconds).toBe(180);
    const free = await createFlight(n, { pricing: { model: 'flat', amount_cents: 0, currency: 'GBP' }, impression_goal: 1 });
    expect(free).toMatchObject({ pricing: { amount_cents: 0 }, impression_goal: 1 });
    expect((await createFlight(n, { external_order_id: 'x'.repeat(200) })).external_order_id).toHaveLength(200);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const n = await network();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '  ' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ name: 7 }, 'name'],
      [{ starts_at: undefined }, 'starts_at'],
      [{ starts_at: 'tomorrow' }, 'starts_at'],
      [{ ends_at: undefined }, 'ends_at'],
      [{ ends_at: BASE.starts_at }, 'ends_at'],
      [{ ends_at: at(0) }, 'ends_at'],
      [{ placement: undefined }, 'placement'],
      [{ placement: 'middle' }, 'placement'],
      [{ max_duration_seconds: 4 }, 'max_duration_seconds'],
      [{ max_duration_seconds: 181 }, 'max_duration_seconds'],
      [{ max_duration_seconds: 30.5 }, 'max_duration_seconds'],
      [{ max_duration_seconds: '60' }, 'max_duration_seconds'],
      [{ pricing: undefined }, 'pricing'],
      [{ pricing: 'flat' }, 'pricing'],
      [{ pricing: { ...BASE.pricing, model: 'cpc' } }, 'pricing.model'],
      [{ pricing: { ...BASE.pricing, amount_cents: -1 } }, 'pricing.amount_cents'],
      [{ pricing: { ...BASE.pricing, amount_cents: 1.5 } }, 'pricing.amount_cents'],
      [{ pricing: { ...BASE.pricing, currency: 'usd' } }, 'pricing.currency'],
      [{ pricing: { ...BASE.pricing, currency: 'EURO' } }, 'pricing.currency'],
      [{ pricing: { ...BASE.pricing, currency: undefined } }, 'pricing.currency'],
      [{ pricing: { ...BASE.pricing, discount: 5 } }, 'pricing'],
      [{ pricing: { model: 'cpm', amount_cents: 2500, currency: 'USD' } }, 'impression_goal'],
      [{ impression_goal: 0 }, 'impression_goal'],
      [{ impression_goal: 2.5 }, 'impression_goal'],
      [{ external_order_id: 'x'.repeat(201) }, 'external_order_id'],
      [{ external_order_id: '   ' }, 'external_order_id'],
      [{ external_order_id: 42 }, 'external_order_id'],
    ];
    for (const [fields, path] of cases) {
      const res = await post(n, fields);
      const problem = expectProblem(res, 400, 'bad-request');
      expect(problem.errors?.[0]?.path, JSON.stringify(fields)).toBe(path);
    }
    expect((await post(n, { colour: 'red' })).status).toBe(400);
    expect((await api('GET', flightsOf(n), { token: n.admin })).body).toMatchObject({ items: [] });
  });

  it('keeps a flight inside its campaign’s dates when the campaign has them', async () => {
    const [starts, ends] = [at(10), at(20)];
    const n = await network({ starts_at: starts, ends_at: ends });
    const early = await post(n, { starts_at: at(9), ends_at: at(15) });
    expect(expectProblem(early, 400, 'bad-request').errors?.[0]?.path).toBe('starts_at');
    const late = await post(n, { starts_at: at(11), ends_at: at(21) });
    expect(expectProblem(late, 400, 'bad-request').errors?.[0]?.path).toBe('ends_at');
    expect((await post(n, { starts_at: starts, ends_at: ends })).status).toBe(201);
    // Only a start: the end is free.
    const open = await network({ starts_at: starts });
    expect((await post(open, { starts_at: starts, ends_at: at(400) })).status).toBe(201);
    expect(expectProblem(await post(open, { starts_at: at(5), ends_at: at(400) }), 400, 'bad-request').errors?.[0]?.path).toBe('starts_at');
  });

  it('an archived campaign takes no new flights, and its flights can no longer change or be deleted (409)', async () => {
    const n = await network();
    const flight = await createFlight(n);
    expect((await api('PATCH', `/networks/${n.id}/campaigns/${n.campaignId}`, { token: n.admin, body: { status: 'archived' } })).status).toBe(200);
    expect(expectProblem(await post(n, {}), 409, 'conflict').detail).toMatch(/archived/);
    expect(expectProblem(await patch(n, flight.id, { name: 'Late' }), 409, 'conflict').detail).toMatch(/archived/);
    const del = await api('DELETE', `/networks/${n.id}/flights/${flight.id}`, { token: n.admin });
    expect(expectProblem(del, 409, 'conflict').detail).toMatch(/archived/);
    // Still readable, unchanged.
    expect((await api<Flight>('GET', `/networks/${n.id}/flights/${flight.id}`, { token: n.reader })).body.version).toBe(1);
  });
});

describe('who may see and change flights', () => {
  it('read_only reads but gets 403 on every write; another network’s key gets 403', async () => {
    const n = await network();
    const flight = await createFlight(n);
    expectProblem(await api('POST', flightsOf(n), { token: n.reader, body: BASE }), 403, 'forbidden');
    expectProblem(await api('PATCH', `/networks/${n.id}/flights/${flight.id}`, { token: n.reader, body: { name: 'X' } }), 403, 'forbidden');
    expectProblem(await api('DELETE', `/networks/${n.id}/flights/${flight.id}`, { token: n.reader }), 403, 'forbidden');
    expect((await api('GET', flightsOf(n), { token: n.reader })).status).toBe(200);
    const other = await network();
    expect((await api('GET', `/networks/${n.id}/flights/${flight.id}`, { token: other.admin })).status).toBe(403);
    expect((await api('GET', flightsOf(n), { token: other.admin })).status).toBe(403);
  });

  it('another network’s flight or campaign, and unknown ids, are 404 through one’s own network', async () => {
    const n = await network();
    const other = await network();
    const foreign = await createFlight(other);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine' }],
      ['DELETE', undefined],
    ] as const) {
      for (const id of [foreign.id, 'flt_00000000000000000000000000']) {
        expectProblem(await api(method, `/networks/${n.id}/flights/${id}`, { token: n.admin, body }), 404, 'not-found');
      }
    }
    for (const campaignId of [other.campaignId, 'cmp_00000000000000000000000000']) {
      expectProblem(await api('GET', flightsOf(n, campaignId), { token: n.admin }), 404, 'not-found');
      expectProblem(await post(n, {}, campaignId), 404, 'not-found');
    }
    expect((await api<Flight>('GET', `/networks/${other.id}/flights/${foreign.id}`, { token: other.admin })).body.name).toBe('Pre-roll');
  });
});

describe('the derived status', () => {
  it('is scheduled before starts_at, live until ends_at, ended after, in reads and lists', async () => {
    const n = await network();
    const ended = await createFlight(n, { starts_at: at(-30), ends_at: at(-1) });
    const live = await createFlight(n, { starts_at: at(-1), ends_at: at(1) });
    const scheduled = await createFlight(n, { starts_at: at(1), ends_at: at(2) });
    expect([ended.status, live.status, scheduled.status]).toEqual(['ended', 'live', 'scheduled']);
    const listed = await api<Page<Flight>>('GET', flightsOf(n), { token: n.reader });
    expect(listed.body.items.map((f) => [f.id, f.status])).toEqual([
      [ended.id, 'ended'],
      [live.id, 'live'],
      [scheduled.id, 'scheduled'],
    ]);
    // Moving the dates moves the status.
    expect((await patch(n, scheduled.id, { starts_at: at(-2) })).body.status).toBe('live');
  });
});

describe('listing flights', () => {
  it('lists a campaign’s flights in creation order with a cursor bound to the campaign', async () => {
    const n = await network();
    const second = await api<{ id: string }>('POST', `/networks/${n.id}/campaigns`, {
      token: n.admin,
      body: { name: 'Other', advertiser_id: n.advertiserId },
    });
    const mine = [];
    for (let i = 0; i < 5; i++) {
      mine.push(await createFlight(n, { name: `Flight ${i}` }));
      await createFlight(n, { name: `Elsewhere ${i}` }, second.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page: { status: number; body: Page<Flight> } = await api<Page<Flight>>('GET', `${flightsOf(n)}${query}`, { token: n.reader });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((f) => f.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(mine.map((f) => f.id));
    const first = await api<Page<Flight>>('GET', `${flightsOf(n)}?limit=2`, { token: n.reader });
    const foreignCursor = encodeURIComponent(first.body.next_cursor!);
    expect((await api('GET', `${flightsOf(n, second.body.id)}?limit=2&cursor=${foreignCursor}`, { token: n.reader })).status).toBe(400);
    expect((await api('GET', `${flightsOf(n)}?limit=0`, { token: n.reader })).status).toBe(400);
  });
});

describe('updating flights', () => {
  it('updates with If-Match or version, bumps version and ETag; a stale version is 409', async () => {
    const n = await network();
    const f = await createFlight(n);
    const res = await patch(
      n,
      f.id,
      { name: 'Mid-roll', placement: 'mid', max_duration_seconds: 90, external_order_id: 'PO-7' },
      { 'if-match': '"1"' },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Mid-roll', placement: 'mid', max_duration_seconds: 90, external_order_id: 'PO-7', version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
    const stale = await patch(n, f.id, { name: 'Post', version: 1 });
    expect(expectProblem(stale, 409, 'conflict').detail).toMatch(/version/);
    expect((await patch(n, f.id, { name: 'Post' }, { 'if-match': '"1"' })).status).toBe(409);
    const cleared = await patch(n, f.id, { external_order_id: null, version: 2 });
    expect(cleared.body).toMatchObject({ external_order_id: null, version: 3 });
  });

  it('checks the rules against the stored values; pricing is replaced whole; the campaign cannot change', async () => {
    const n = await network({ ends_at: at(30) });
    const f = await createFlight(n);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ends_at: f.starts_at }, 'ends_at'],
      [{ starts_at: at(9) }, 'ends_at'],
      [{ ends_at: at(31) }, 'ends_at'],
      [{ pricing: { model: 'cpm', amount_cents: 2000, currency: 'USD' } }, 'impression_goal'],
      [{ pricing: { model: 'cpm' } }, 'pricing.amount_cents'],
      [{ max_duration_seconds: 200 }, 'max_duration_seconds'],
      [{ placement: 'end' }, 'placement'],
      [{ name: '' }, 'name'],
    ];
    for (const [body, path] of cases) {
      expect(expectProblem(await patch(n, f.id, body), 400, 'bad-request').errors?.[0]?.path, JSON.stringify(body)).toBe(path);
    }
    expect((await patch(n, f.id, { campaign_id: 'cmp_00000000000000000000000000' })).status).toBe(400);
    expect((await patch(n, f.id, { network_id: 'net_x' })).status).toBe(400);
    const cpm = await patch(n, f.id, { pricing: { model: 'cpm', amount_cents: 2000, currency: 'USD' }, impression_goal: 50_000 });
    expect(cpm.status, cpm.text).toBe(200);
    expect(cpm.body).toMatchObject({ pricing: { model: 'cpm', amount_cents: 2000, currency: 'USD' }, impression_goal: 50_000, version: 2 });
    expect(expectProblem(await patch(n, f.id, { impression_goal: null }), 400, 'bad-request').errors?.[0]?.path).toBe('impression_goal');
    const flat = await patch(n, f.id, { pricing: { model: 'flat', amount_cents: 100, currency: 'USD' }, impression_goal: null });
    expect(flat.body).toMatchObject({ pricing: { model: 'flat' }, impression_goal: null, version: 3 });
    // Nothing to change: the flight as it is.
    expect((await patch(n, f.id, {})).body.version).toBe(3);
  });
});

describe('deleting flights', () => {
  it('soft-deletes: 200 with deleted_at, then 404 on reads, writes and a second delete, and gone from the list', async () => {
    const n = await network();
    const keep = await createFlight(n);
    const gone = await createFlight(n);
    expect((await api('DELETE', `/networks/${n.id}/flights/${gone.id}`, { token: n.admin, headers: { 'if-match': '"7"' } })).status).toBe(409);
    const res = await api<Flight>('DELETE', `/networks/${n.id}/flights/${gone.id}`, { token: n.admin, headers: { 'if-match': '"1"' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: gone.id, version: 2, deleted_at: expect.any(String) });
    expectProblem(await api('GET', `/networks/${n.id}/flights/${gone.id}`, { token: n.admin }), 404, 'not-found');
    expectProblem(await patch(n, gone.id, { name: 'Back' }), 404, 'not-found');
    expectProblem(await api('DELETE', `/networks/${n.id}/flights/${gone.id}`, { token: n.admin }), 404, 'not-found');
    const listed = await api<Page<Flight>>('GET', flightsOf(n), { token: n.admin });
    expect(listed.body.items.map((f) => f.id)).toEqual([keep.id]);
  });
});

describe('idempotency', () => {
  it('a POST retried with the same Idempotency-Key creates one flight', async () => {
    const n = await network();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await api<Flight>('POST', flightsOf(n), { token: n.admin, body: BASE, headers });
    const again = await api<Flight>('POST', flightsOf(n), { token: n.admin, body: BASE, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    expect((await api<Page<Flight>>('GET', flightsOf(n), { token: n.admin })).body.items).toHaveLength(1);
  });
});
