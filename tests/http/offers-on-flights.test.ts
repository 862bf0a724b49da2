import { describe, expect, it } from 'vitest';
import { api, expectProblem, type ApiResponse, type Page, type Problem } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';
import { reportReliability } from '@/tests/support/reliability';

// Offers on a flight (docs/ad-flow.md, "Offers on a flight" and "Bulk offers"): the terms an offer
// copies, the bulk POST, and the flight's side of the contract once an offer is accepted.

useTestDatabase();

interface Terms {
  placement: string;
  starts_at: string;
  ends_at: string;
  max_duration_seconds: number;
  pricing: { model: string; amount_cents: number; currency: string };
  impression_goal: number | null;
}
interface Offer {
  id: string;
  campaign_id: string;
  podcast_id: string;
  flight_id: string | null;
  terms: Terms | null;
  status: string;
  price_cents: number | null;
  currency: string | null;
  creative_id: string | null;
  version: number;
}
interface Flight {
  id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  pricing: { model: string; amount_cents: number; currency: string };
  impression_goal: number | null;
  version: number;
}
type Item = { podcast_id: string; status: 201; offer: Offer } | { podcast_id: string; status: number; error: Problem };

const DAY = 86_400_000;
const at = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

/** A cpm mid-roll flight from tomorrow for a week: 25.00 per 1,000 impressions, 100,000 of them. */
const FLIGHT = {
  name: 'Mid-roll, week one',
  starts_at: at(1),
  ends_at: at(8),
  placement: 'mid',
  max_duration_seconds: 45,
  pricing: { model: 'cpm', amount_cents: 2500, currency: 'EUR' },
  impression_goal: 100_000,
  external_order_id: 'IO-7',
};

/**
 * A network with an administrator and a read_only key, an active campaign (with `campaign` fields),
 * `podcasts` opted-in podcasts and one flight; made over /v1.
 */
async function booking({
  campaign = {},
  podcasts = 2,
  flight = {},
}: { campaign?: Record<string, unknown>; podcasts?: number; flight?: Record<string, unknown> } = {}) {
  const n = await networkWithKeys();
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api<T>(method, `/networks/${n.id}${path}`, { token: n.admin, body, headers });
  const adv = await call<{ id: string }>('POST', '/advertisers', { name: 'Acme' });
  const cmp = await call<{ id: string }>('POST', '/campaigns', { name: 'Spring', advertiser_id: adv.body.id, status: 'active', ...campaign });
  expect(cmp.status, cmp.text).toBe(201);
  const podcastIds: string[] = [];
  for (let i = 0; i < podcasts; i++) podcastIds.push(await podcast(call, `Pod ${i}`));
  const flt = await call<Flight>('POST', `/campaigns/${cmp.body.id}/flights`, { ...FLIGHT, ...flight });
  expect(flt.status, flt.text).toBe(201);
  return { ...n, call, campaignId: cmp.body.id, advertiserId: adv.body.id, podcastIds, flight: flt.body };
}

type Call = Awaited<ReturnType<typeof booking>>['call'];

async function podcast(call: Call, name: string, optIn = true): Promise<string> {
  const pod = await call<{ id: string }>('POST', '/podcasts', { name, host_name: 'Sam' });
  expect(pod.status, pod.text).toBe(201);
  if (optIn) expect((await call('POST', `/podcasts/${pod.body.id}/opt-in`)).status).toBe(200);
  return pod.body.id;
}

type Booking = Awaited<ReturnType<typeof booking>>;

function offer(b: Booking, body: Record<string, unknown>) {
  return b.call<Offer & Omit<Problem, 'status'>>('POST', '/offers', { podcast_id: b.podcastIds[0], flight_id: b.flight.id, ...body });
}

async function offered(b: Booking, body: Record<string, unknown> = {}): Promise<Offer> {
  const res = await offer(b, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const accept = (b: Booking, id: string) => b.call<Offer & Omit<Problem, 'status'>>('POST', `/offers/${id}/accept`);
const patchFlight = (b: Booking, body: Record<string, unknown>) => b.call<Flight & Omit<Problem, 'status'>>('PATCH', `/flights/${b.flight.id}`, body);
const deleteFlight = (b: Booking) => b.call<Flight & Omit<Problem, 'status'>>('DELETE', `/flights/${b.flight.id}`);
const readOffer = async (b: Booking, id: string) => (await api<Offer>('GET', `/networks/${b.id}/offers/${id}`, { token: b.reader })).body;
const bulk = (b: Booking, body: Record<string, unknown>, headers?: Record<string, string>, flightId = b.flight.id) =>
  b.call<{ items: Item[] } & Omit<Problem, 'status'>>('POST', `/flights/${flightId}/offers`, body, headers);

/** The terms an offer on FLIGHT carries, with `share` (amount, goal) when given. */
const termsOf = (flight: Flight, share: { amount_cents?: number; impression_goal?: number } = {}): Terms => ({
  placement: 'mid',
  starts_at: flight.starts_at,
  ends_at: flight.ends_at,
  max_duration_seconds: 45,
  pricing: { ...flight.pricing, amount_cents: share.amount_cents ?? flight.pricing.amount_cents },
  impression_goal: share.impression_goal ?? null,
});

describe('an offer on a flight', () => {
  it('copies the flight’s terms (campaign_id may be left out), mirrors the price, and every read shows flight_id and terms', async () => {
    const b = await booking();
    const res = await offer(b, {});
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      campaign_id: b.campaignId,
      podcast_id: b.podcastIds[0],
      flight_id: b.flight.id,
      terms: termsOf(b.flight),
      status: 'open',
      price_cents: 2500,
      currency: 'EUR',
    });
    const mine = await offered(b, { podcast_id: b.podcastIds[1], campaign_id: b.campaignId, amount_cents: 1800, impression_goal: 40_000 });
    expect(mine).toMatchObject({ terms: termsOf(b.flight, { amount_cents: 1800, impression_goal: 40_000 }), price_cents: 1800, currency: 'EUR' });
    // The goal may be the whole flight's.
    expect((await offered(b, { impression_goal: 100_000 })).terms!.impression_goal).toBe(100_000);

    expect(await readOffer(b, res.body.id)).toEqual(res.body);
    const listed = await api<Page<Offer>>('GET', `/networks/${b.id}/offers?flight_id=${b.flight.id}`, { token: b.reader });
    expect(listed.body.items.map((o) => o.id)).toEqual([res.body.id, mine.id, expect.any(String)]);
    expect(listed.body.items[1]).toEqual(mine);
    const accepted = await accept(b, mine.id);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', flight_id: b.flight.id, terms: mine.terms });
    const rejected = await b.call<Offer>('POST', `/offers/${res.body.id}/reject`, { reason: 'Full' });
    expect(rejected.body).toMatchObject({ status: 'rejected', flight_id: b.flight.id, terms: res.body.terms });
  });

  it('an offer without a flight works as before: flight_id and terms null, and the flight filter leaves it out', async () => {
    const b = await booking();
    const plain = await b.call<Offer>('POST', '/offers', {
      campaign_id: b.campaignId,
      podcast_id: b.podcastIds[0],
      price_cents: 900,
      currency: 'USD',
    });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body).toMatchObject({ flight_id: null, terms: null, price_cents: 900, currency: 'USD', status: 'open' });
    const onFlight = await offered(b);
    const byFlight = await api<Page<Offer>>('GET', `/networks/${b.id}/offers?flight_id=${b.flight.id}`, { token: b.reader });
    expect(byFlight.body.items.map((o) => o.id)).toEqual([onFlight.id]);
    const all = await api<Page<Offer>>('GET', `/networks/${b.id}/offers`, { token: b.reader });
    expect(all.body.items.map((o) => o.id)).toEqual([plain.body.id, onFlight.id]);
  });

  it('refuses what does not fit the flight with 400 naming the field', async () => {
    const b = await booking();
    const other = await b.call<{ id: string }>('POST', '/campaigns', { name: 'Other', advertiser_id: b.advertiserId });
    const elsewhere = await booking();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ campaign_id: other.body.id }, 'campaign_id'],
      [{ price_cents: 100, currency: 'EUR' }, 'price_cents'],
      [{ price_cents: 100 }, 'price_cents'],
      [{ currency: 'EUR' }, 'currency'],
      [{ impression_goal: 100_001 }, 'impression_goal'],
      [{ impression_goal: 0 }, 'impression_goal'],
      [{ amount_cents: -1 }, 'amount_cents'],
      [{ amount_cents: 1.5 }, 'amount_cents'],
      [{ flight_id: 'flt_00000000000000000000000000' }, 'flight_id'],
      [{ flight_id: elsewhere.flight.id }, 'flight_id'],
      [{ flight_id: undefined }, 'campaign_id'],
      [{ flight_id: undefined, campaign_id: b.campaignId, amount_cents: 100 }, 'amount_cents'],
      [{ flight_id: undefined, campaign_id: b.campaignId, impression_goal: 10 }, 'impression_goal'],
    ];
    for (const [body, path] of cases) {
      const problem = expectProblem(await offer(b, body), 400, 'bad-request');
      expect(problem.errors?.[0]?.path, JSON.stringify(body)).toBe(path);
    }
    expect(expectProblem(await offer(b, { price_cents: 100 }), 400, 'bad-request').detail).toMatch(/amount_cents/);
    expect((await api<Page<Offer>>('GET', `/networks/${b.id}/offers`, { token: b.reader })).body.items).toEqual([]);
  });

  it('a deleted or ended flight cannot be offered (409)', async () => {
    const b = await booking();
    expect((await deleteFlight(b)).status).toBe(200);
    expect(expectProblem(await offer(b, {}), 409, 'conflict').detail).toMatch(/deleted/);
    const past = await booking({ flight: { starts_at: at(-10), ends_at: at(-1) } });
    expect(expectProblem(await offer(past, {}), 409, 'conflict').detail).toMatch(/ended/);
  });

  it('keeps its terms when the flight is renamed; a change of the flight’s terms expires the open offers made on the old ones', async () => {
    const b = await booking();
    const open = await offered(b);
    const rejected = await offered(b, { podcast_id: b.podcastIds[1] });
    await b.call('POST', `/offers/${rejected.id}/reject`);
    expect((await patchFlight(b, { name: 'Renamed', external_order_id: 'IO-8' })).status).toBe(200);
    expect(await readOffer(b, open.id)).toMatchObject({ status: 'open', version: open.version, terms: open.terms });
    // Sending the values the flight has changes no terms.
    expect((await patchFlight(b, { pricing: FLIGHT.pricing, placement: 'mid', starts_at: b.flight.starts_at })).status).toBe(200);
    expect((await readOffer(b, open.id)).status).toBe('open');

    const moved = await patchFlight(b, { pricing: { model: 'cpm', amount_cents: 3000, currency: 'EUR' } });
    expect(moved.status, moved.text).toBe(200);
    const after = await readOffer(b, open.id);
    expect(after).toMatchObject({ status: 'expired', version: open.version + 1, terms: open.terms, price_cents: 2500 });
    expect((await readOffer(b, rejected.id)).status).toBe('rejected');
    expect(expectProblem(await accept(b, open.id), 409, 'conflict').detail).toMatch(/expired/);
    // A new offer carries the new terms.
    expect((await offered(b)).terms!.pricing.amount_cents).toBe(3000);
  });
});

describe('a flight with an accepted offer', () => {
  it('refuses DELETE and any change of its terms (409), takes a new name and order id', async () => {
    const b = await booking();
    const booked = await offered(b);
    expect((await accept(b, booked.id)).status).toBe(200);
    const del = expectProblem(await deleteFlight(b), 409, 'conflict');
    expect(del.detail).toMatch(new RegExp(`accepted offer \\(${booked.id}\\)`));
    for (const change of [
      { starts_at: at(2) },
      { ends_at: at(7) },
      { placement: 'pre' },
      { max_duration_seconds: 30 },
      { pricing: { model: 'cpm', amount_cents: 2600, currency: 'EUR' } },
      { pricing: { model: 'cpm', amount_cents: 2500, currency: 'USD' } },
      { pricing: { model: 'flat', amount_cents: 2500, currency: 'EUR' } },
      { impression_goal: 90_000 },
    ]) {
      expect(expectProblem(await patchFlight(b, change), 409, 'conflict').detail, JSON.stringify(change)).toMatch(/accepted offer/);
    }
    const renamed = await patchFlight(b, { name: 'Booked', external_order_id: null, pricing: FLIGHT.pricing });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Booked', pricing: FLIGHT.pricing, version: 2 });
    expect((await readOffer(b, booked.id)).status).toBe('accepted');
  });

  it('a rejected or expired offer does not hold the flight', async () => {
    const b = await booking();
    const declined = await offered(b);
    await b.call('POST', `/offers/${declined.id}/reject`);
    expect((await patchFlight(b, { placement: 'post' })).status).toBe(200);
    expect((await deleteFlight(b)).status).toBe(200);
  });
});

describe('deleting a flight with open offers', () => {
  it('expires them in the same transaction; accepting one afterwards is a 409 that says the flight was deleted', async () => {
    const b = await booking();
    const [first, second] = [await offered(b), await offered(b, { podcast_id: b.podcastIds[1] })];
    const del = await deleteFlight(b);
    expect(del.status, del.text).toBe(200);
    for (const o of [first, second])
      expect(await readOffer(b, o.id)).toMatchObject({ status: 'expired', version: o.version + 1, flight_id: b.flight.id });
    expect(expectProblem(await accept(b, first.id), 409, 'conflict').detail).toMatch(/deleted/);
    // The cron's expiry sends no event; neither does this one.
    const events = await api<Page<{ type: string }>>('GET', `/networks/${b.id}/events`, { token: b.reader });
    expect(events.body.items.filter((e) => e.type.startsWith('offer.'))).toEqual([]);
  });

  it('an offer whose flight has ended since cannot be accepted (409)', async () => {
    const b = await booking();
    const endsAt = Date.now() + 1500;
    const ending = await b.call<Flight>('POST', `/campaigns/${b.campaignId}/flights`, {
      ...FLIGHT,
      starts_at: at(-1),
      ends_at: new Date(endsAt).toISOString(),
    });
    const late = await offered({ ...b, flight: ending.body });
    await new Promise((resolve) => setTimeout(resolve, endsAt + 100 - Date.now()));
    expect(expectProblem(await accept(b, late.id), 409, 'conflict').detail).toMatch(/ended/);
    expect((await readOffer(b, late.id)).status).toBe('open');
  });
});

describe('a campaign’s dates and its flights', () => {
  it('a PATCH that would leave a flight outside the campaign’s dates is a 409 naming the flight; a deleted flight does not count', async () => {
    const b = await booking({ campaign: { starts_at: at(0), ends_at: at(30) } });
    const path = `/campaigns/${b.campaignId}`;
    const refused = expectProblem(await b.call('PATCH', path, { ends_at: at(5) }), 409, 'conflict');
    expect(refused.detail).toContain(b.flight.id);
    expect(expectProblem(await b.call('PATCH', path, { starts_at: at(2) }), 409, 'conflict').detail).toContain(b.flight.id);
    // Around the flight, or with no dates at all: fine.
    expect((await b.call('PATCH', path, { starts_at: b.flight.starts_at, ends_at: b.flight.ends_at })).status).toBe(200);
    expect((await b.call('PATCH', path, { starts_at: null, ends_at: null })).status).toBe(200);
    expect((await b.call('PATCH', path, { ends_at: at(9) })).status).toBe(200);
    expect((await deleteFlight(b)).status).toBe(200);
    expect((await b.call('PATCH', path, { ends_at: at(3) })).status).toBe(200);
  });
});

describe('bulk offers: POST /flights/{flightId}/offers', () => {
  it('answers one item per podcast in request order — 201 with the offer, or the error envelope the single POST gives — and one refusal undoes no other offer', async () => {
    const b = await booking({ podcasts: 2 });
    const optedOut = await podcast(b.call, 'Opted out');
    expect((await b.call('POST', `/podcasts/${optedOut}/opt-out`)).status).toBe(200);
    const elsewhere = await booking({ podcasts: 1 });
    const unknown = 'pod_00000000000000000000000000';
    const ids = [b.podcastIds[0]!, optedOut, unknown, elsewhere.podcastIds[0]!, b.podcastIds[1]!];
    const res = await bulk(b, { podcast_ids: ids, amount_cents: 2000, impression_goal: 25_000 });
    expect(res.status, res.text).toBe(200);
    const items = res.body.items;
    expect(items.map((i) => [i.podcast_id, i.status])).toEqual([
      [ids[0], 201],
      [optedOut, 409],
      [unknown, 400],
      [ids[3], 400],
      [ids[4], 201],
    ]);
    const made = items.flatMap((i) => ('offer' in i ? [i.offer] : []));
    for (const [k, o] of made.entries()) {
      expect(o).toMatchObject({
        podcast_id: [ids[0], ids[4]][k],
        flight_id: b.flight.id,
        campaign_id: b.campaignId,
        status: 'open',
        terms: termsOf(b.flight, { amount_cents: 2000, impression_goal: 25_000 }),
        price_cents: 2000,
        currency: 'EUR',
      });
    }
    const refusal = (i: number) => (items[i] as { error: Problem }).error;
    expect(refusal(1)).toMatchObject({
      status: 409,
      title: 'Conflict',
      type: expect.stringMatching(/\/errors\/conflict$/),
      detail: expect.stringMatching(/opted in/),
    });
    expect(Object.keys(refusal(1)).sort()).toEqual(['detail', 'status', 'title', 'type']);
    expect(refusal(2)).toMatchObject({
      status: 400,
      type: expect.stringMatching(/\/errors\/bad-request$/),
      errors: [{ path: 'podcast_id', message: 'Unknown podcast.' }],
    });
    expect(refusal(3)).toMatchObject({ status: 400, errors: [{ path: 'podcast_id' }] });
    const listed = await api<Page<Offer>>('GET', `/networks/${b.id}/offers?flight_id=${b.flight.id}`, { token: b.reader });
    expect(listed.body.items).toEqual(made);
  });

  it('replays the whole answer under its Idempotency-Key, and makes no second offer', async () => {
    const b = await booking({ podcasts: 1 });
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const body = { podcast_ids: [b.podcastIds[0], 'pod_00000000000000000000000000'] };
    const first = await bulk(b, body, headers);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await bulk(b, body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const listed = await api<Page<Offer>>('GET', `/networks/${b.id}/offers`, { token: b.reader });
    expect(listed.body.items).toHaveLength(1);
    // Without a key a repeat is a new request: the podcast gets a second offer.
    expect((await bulk(b, body)).body.items.map((i) => i.status)).toEqual([201, 400]);
    expect(expectProblem(await bulk(b, { podcast_ids: [b.podcastIds[0]] }, headers), 422, 'idempotency-key-reused')).toBeTruthy();
  });

  it('takes 1 to 200 distinct podcast ids (else 400 on podcast_ids), and answers all 200', async () => {
    const b = await booking({ podcasts: 1 });
    const fake = (i: number) => `pod_${String(i).padStart(26, '0')}`;
    for (const podcast_ids of [[], [b.podcastIds[0], b.podcastIds[0]], Array.from({ length: 201 }, (_, i) => fake(i)), 'pod_1', [7]]) {
      const problem = expectProblem(await bulk(b, { podcast_ids }), 400, 'bad-request');
      expect(problem.errors?.[0]?.path, JSON.stringify(podcast_ids).slice(0, 40)).toMatch(/^podcast_ids/);
    }
    expect(expectProblem(await bulk(b, {}), 400, 'bad-request').errors?.[0]?.path).toBe('podcast_ids');
    const ids = [...Array.from({ length: 199 }, (_, i) => fake(i)), b.podcastIds[0]!];
    const started = Date.now();
    const res = await bulk(b, { podcast_ids: ids });
    const ms = Date.now() - started;
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i) => i.podcast_id)).toEqual(ids);
    expect(res.body.items.filter((i) => i.status === 400)).toHaveLength(199);
    expect(res.body.items[199]!.status).toBe(201);
    reportReliability('bulk-offers-200', {
      claim: 'a bulk offer of 200 podcasts (199 refused, 1 made) answers every item, in one transaction with a savepoint each',
      figures: { items: res.body.items.length, ms },
    });
  });

  it('refuses the whole request for what does not depend on the podcast, and makes nothing', async () => {
    const b = await booking({ podcasts: 1 });
    const body = { podcast_ids: b.podcastIds };
    const elsewhere = await booking({ podcasts: 0 });
    expectProblem(await bulk(b, body, undefined, 'flt_00000000000000000000000000'), 404, 'not-found');
    expectProblem(await bulk(b, body, undefined, elsewhere.flight.id), 404, 'not-found');
    expect(expectProblem(await bulk(b, { ...body, impression_goal: 100_001 }), 400, 'bad-request').errors?.[0]?.path).toBe('impression_goal');
    expect(expectProblem(await bulk(b, { ...body, expires_at: at(-1) }), 400, 'bad-request').errors?.[0]?.path).toBe('expires_at');
    expect(expectProblem(await bulk(b, { ...body, price_cents: 5 }), 400, 'bad-request').detail).toMatch(/price_cents/);
    expectProblem(await api('POST', `/networks/${b.id}/flights/${b.flight.id}/offers`, { token: b.reader, body }), 403, 'forbidden');
    expect((await b.call('PATCH', `/campaigns/${b.campaignId}`, { status: 'paused' })).status).toBe(200);
    expect(expectProblem(await bulk(b, body), 409, 'conflict').detail).toMatch(/paused/);
    const past = await booking({ podcasts: 1, flight: { starts_at: at(-10), ends_at: at(-1) } });
    expect(expectProblem(await bulk(past, { podcast_ids: past.podcastIds }), 409, 'conflict').detail).toMatch(/ended/);
    expect((await deleteFlight(past)).status).toBe(200);
    expectProblem(await bulk(past, { podcast_ids: past.podcastIds }), 404, 'not-found');
    for (const n of [b, past]) expect((await api<Page<Offer>>('GET', `/networks/${n.id}/offers`, { token: n.reader })).body.items).toEqual([]);
  });
});

describe('the contract holds at commit', () => {
  /** Both at once, `rounds` times over fresh flights; what each answered, and what was left. */
  async function race(rounds: number, write: (b: Booking) => Promise<ApiResponse<unknown>>) {
    const b = await booking({ podcasts: 1 });
    const outcomes: Array<{ accept: number; write: number; offer: Offer; flight: ApiResponse<Flight> }> = [];
    for (let round = 0; round < rounds; round++) {
      const flight = await b.call<Flight>('POST', `/campaigns/${b.campaignId}/flights`, FLIGHT);
      const r = { ...b, flight: flight.body };
      const o = await offered(r);
      const [accepted, written] = await Promise.all([accept(r, o.id), write(r)]);
      const flightNow = await api<Flight>('GET', `/networks/${b.id}/flights/${flight.body.id}`, { token: b.reader });
      outcomes.push({ accept: accepted.status, write: written.status, offer: await readOffer(b, o.id), flight: flightNow });
    }
    return outcomes;
  }

  it('an accept racing a PATCH of the flight’s price: never an accepted offer under terms changed after it', async () => {
    const outcomes = await race(20, (b) => patchFlight(b, { pricing: { model: 'cpm', amount_cents: 3100, currency: 'EUR' } }));
    for (const o of outcomes) {
      // Exactly one of the two wins, and what is left is what that order leaves.
      expect([o.accept, o.write].sort(), JSON.stringify(o)).toEqual([200, 409]);
      if (o.accept === 200) {
        expect(o.offer.status).toBe('accepted');
        expect(o.flight.body.pricing.amount_cents).toBe(o.offer.terms!.pricing.amount_cents);
      } else {
        expect(o.offer.status).toBe('expired');
        expect(o.flight.body.pricing.amount_cents).toBe(3100);
      }
    }
    const won = outcomes.filter((o) => o.accept === 200).length;
    reportReliability('flight-terms-accept-race', {
      claim: 'an accept racing a PATCH of its flight’s price: exactly one wins; never an accepted offer under changed terms',
      figures: { rounds: outcomes.length, 'accept won': won, 'PATCH won': outcomes.length - won, 'both won': 0 },
    });
  });

  it('an accept racing a DELETE of the flight: never an accepted offer on a deleted flight', async () => {
    const outcomes = await race(10, (b) => deleteFlight(b));
    for (const o of outcomes) {
      expect([o.accept, o.write].sort(), JSON.stringify(o)).toEqual([200, 409]);
      if (o.accept === 200) expect(o.flight.status).toBe(200);
      else expect([o.offer.status, o.flight.status]).toEqual(['expired', 404]);
    }
  });
});
