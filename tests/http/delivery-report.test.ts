/**
 * The delivery report (docs/measurement.md, "Reports") and flight pacing ("Pacing"), over real
 * HTTP: a host's ad server calls accepted offers' tracking URLs — listeners, a bot, a repeat —
 * and the host reports its own counts through `POST …/delivery-reports`; `GET …/reports/delivery`
 * then gives exactly these rows by day, flight, podcast and campaign, with its filters, its range
 * checks, its pages and as CSV, and never another network's delivery. A flight with a goal shows
 * its pacing on the report and on the flight itself.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { addDays, utcDay } from '@/server/services/tracking/hit-rules';
import { api, expectProblem, type Page } from '@/tests/support/api';
import { adInventory, networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';
import { parseCsv } from '@/tests/support/csv';

useTestDatabase();

const LISTENER_APP = 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DAY_MS = 86_400_000;

const today = utcDay(Date.now());
const yesterday = addDays(today, -1);
const tomorrow = addDays(today, 1);

interface Pacing {
  delivered: number;
  expected_to_date: number;
  ratio: number | null;
  status: 'on_track' | 'behind' | 'ahead' | 'goal_reached';
}
interface Row {
  key: string;
  name: string | null;
  tracked_impressions: number;
  reported_impressions: number | null;
  goal: number | null;
  pacing: Pacing | null;
}
interface Report extends Page<Row> {
  from: string;
  to: string;
  group_by: string;
}
interface Flight {
  id: string;
  impression_goal: number | null;
  delivered_impressions: number;
  pacing: Pacing | null;
}

/** A network of its own, with an administrator's and a reader's keys, and calls as each. */
async function network() {
  const { id: n, admin, reader } = await networkWithKeys();
  const asAdmin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    api<T>(method, `/networks/${n}${path}`, { token: admin, body });
  const report = (query: string, token = reader) => api<Report>('GET', `/networks/${n}/reports/delivery${query}`, { token });
  return { n, admin, reader, asAdmin, report };
}
type Network = Awaited<ReturnType<typeof network>>;

/** A flight of the campaign over /v1, from `startDays` to `endDays` days from now. */
async function flight(net: Network, campaignId: string, name: string, startDays: number, endDays: number, goal?: number) {
  const res = await net.asAdmin<Flight>('POST', `/campaigns/${campaignId}/flights`, {
    name,
    starts_at: new Date(Date.now() + startDays * DAY_MS).toISOString(),
    ends_at: new Date(Date.now() + endDays * DAY_MS).toISOString(),
    placement: 'pre',
    pricing: goal ? { model: 'cpm', amount_cents: 2500, currency: 'USD' } : { model: 'flat', amount_cents: 50_000, currency: 'USD' },
    ...(goal ? { impression_goal: goal } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** An offer made and accepted over /v1 (of a flight, or of a campaign without one): its id and its tracking URL's path. */
async function acceptedOffer(net: Network, of: { flight_id: string } | { campaign_id: string }, podcastId: string) {
  const body = 'flight_id' in of ? { ...of, podcast_id: podcastId } : { ...of, podcast_id: podcastId, price_cents: 10_000, currency: 'USD' };
  const offer = await net.asAdmin<{ id: string }>('POST', '/offers', body);
  expect(offer.status, offer.text).toBe(201);
  const accepted = await net.asAdmin<{ tracking_url: string }>('POST', `/offers/${offer.body.id}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  return { id: offer.body.id, path: new URL(accepted.body.tracking_url).pathname };
}

/** The host's ad server calls the tracking URL once per episode (each a listener's impression), as `ua`. */
async function served(offer: { path: string }, episodes: string[], ua = LISTENER_APP) {
  for (const episode of episodes) {
    const hit = await fetch(`${inject('baseUrl')}${offer.path}?episode=${encodeURIComponent(episode)}&rid=${randomUUID()}`, {
      headers: { 'user-agent': ua },
    });
    expect(hit.status).toBe(204);
  }
}

/** `count` listeners' impressions, each its own episode. */
const impressions = (offer: { path: string }, count: number) =>
  served(
    offer,
    Array.from({ length: count }, () => `ep-${randomUUID()}`),
  );

async function reported(net: Network, offerId: string, reports: Array<{ date: string; impressions: number; source: string }>) {
  const res = await net.asAdmin('POST', `/offers/${offerId}/delivery-reports`, { reports });
  expect(res.status, res.text).toBe(200);
}

const pacing = (delivered: number, expected: number, status: Pacing['status']): Pacing => ({
  delivered,
  expected_to_date: expected,
  ratio: expected > 0 ? delivered / expected : null,
  status,
});

/**
 * Network N: campaign C1 (flights F1: cpm, goal 20, from 5 days ago to 5 days ahead; F2: flat, no
 * goal; F3: cpm, goal 1,000, starting in 10 days, not offered) and campaign C2 (no flights);
 * podcasts P1 and P2. Accepted offers: F1 → P1, F1 → P2, F2 → P1, C2 → P2 (no flight).
 * Delivery: tracked today (3 + 2 + 4 + 1 impressions, with a repeat and a bot that do not count),
 * reported yesterday and today.
 */
let s: Awaited<ReturnType<typeof scenario>>;

async function scenario() {
  const net = await network();
  const inventory = await adInventory(net.n);
  const c1 = inventory.campaign.id;
  const p1 = inventory.podcast.id;
  const c2 = (
    await net.asAdmin<{ id: string }>('POST', '/campaigns', { name: 'Winter sale', advertiser_id: inventory.advertiser.id, status: 'active' })
  ).body.id;
  const p2 = (await net.asAdmin<{ id: string }>('POST', '/podcasts', { name: 'Early Birds', host_name: 'Kim' })).body.id;
  expect((await net.asAdmin('POST', `/podcasts/${p2}/opt-in`)).status).toBe(200);
  const f1 = await flight(net, c1, 'Pre-roll, cpm', -5, 5, 20);
  const f2 = await flight(net, c1, 'Pre-roll, flat', -1, 10);
  const f3 = await flight(net, c1, 'Later', 10, 40, 1000);
  const o1 = await acceptedOffer(net, { flight_id: f1.id }, p1);
  const o2 = await acceptedOffer(net, { flight_id: f1.id }, p2);
  const o3 = await acceptedOffer(net, { flight_id: f2.id }, p1);
  const o4 = await acceptedOffer(net, { campaign_id: c2 }, p2);
  await served(o1, ['ep-1', 'ep-2', 'ep-3', 'ep-1']); // 3 impressions and a repeat
  await served(o1, ['ep-1'], GOOGLEBOT); // a bot: not counted
  await impressions(o2, 2);
  await impressions(o3, 4);
  await impressions(o4, 1);
  await reported(net, o1.id, [
    { date: yesterday, impressions: 100, source: 'megaphone' },
    { date: today, impressions: 5, source: 'megaphone' },
  ]);
  await reported(net, o1.id, [{ date: today, impressions: 999, source: 'acast' }]);
  await reported(net, o1.id, [{ date: today, impressions: 2, source: 'acast' }]); // replaces 999
  await reported(net, o4.id, [{ date: yesterday, impressions: 7, source: 'host-export' }]);
  return { net, c1, c2, p1, p2, f1, f2, f3, o1, o2, o3, o4 };
}

beforeAll(async () => {
  s = await scenario();
}, 120_000);

describe('GET /v1/networks/{networkId}/reports/delivery', () => {
  it('by day (the default): every day of the range, zeros included, both counts summed over the network’s offers', async () => {
    const res = await s.net.report(`?from=${addDays(today, -2)}&to=${tomorrow}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      from: addDays(today, -2),
      to: tomorrow,
      group_by: 'day',
      next_cursor: null,
      items: [
        { key: addDays(today, -2), name: null, tracked_impressions: 0, reported_impressions: null, goal: null, pacing: null },
        { key: yesterday, name: null, tracked_impressions: 0, reported_impressions: 107, goal: null, pacing: null },
        { key: today, name: null, tracked_impressions: 10, reported_impressions: 7, goal: null, pacing: null },
        { key: tomorrow, name: null, tracked_impressions: 0, reported_impressions: null, goal: null, pacing: null },
      ],
    });
    // Without from/to: the 30 days ending today.
    const standard = await s.net.report('');
    expect(standard.body.from).toBe(addDays(today, -29));
    expect(standard.body.to).toBe(today);
    expect(standard.body.items).toHaveLength(30);
    expect(standard.body.items.at(-1)).toMatchObject({ key: today, tracked_impressions: 10, reported_impressions: 7 });
  });

  it('by flight: each flight delivered in the range, and each flight with a goal running in it; offers without a flight left out', async () => {
    const res = await s.net.report(`?group_by=flight&from=${yesterday}&to=${today}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.group_by).toBe('flight');
    expect(res.body.items).toEqual([
      { key: s.f1.id, name: 'Pre-roll, cpm', tracked_impressions: 5, reported_impressions: 107, goal: 20, pacing: pacing(5, 10, 'behind') },
      { key: s.f2.id, name: 'Pre-roll, flat', tracked_impressions: 4, reported_impressions: null, goal: null, pacing: null },
    ]);
    // A range reaching F3's dates shows it, with nothing delivered and nothing expected yet.
    const ahead = await s.net.report(`?group_by=flight&from=${yesterday}&to=${addDays(today, 20)}`);
    expect(ahead.body.items.map((r) => r.key)).toEqual([s.f1.id, s.f2.id, s.f3.id]);
    expect(ahead.body.items[2]).toEqual({
      key: s.f3.id,
      name: 'Later',
      tracked_impressions: 0,
      reported_impressions: null,
      goal: 1000,
      pacing: { delivered: 0, expected_to_date: 0, ratio: null, status: 'on_track' },
    });
    // Pacing is the flight's whole life, not the range: a range that misses every delivery still shows it.
    const before = await s.net.report(`?group_by=flight&from=${addDays(today, -4)}&to=${addDays(today, -3)}`);
    expect(before.body.items).toEqual([
      { key: s.f1.id, name: 'Pre-roll, cpm', tracked_impressions: 0, reported_impressions: null, goal: 20, pacing: pacing(5, 10, 'behind') },
    ]);
  });

  it('by podcast and by campaign: offers with and without a flight, a campaign’s goal the sum of its flights’', async () => {
    const podcasts = await s.net.report(`?group_by=podcast&from=${yesterday}&to=${today}`);
    expect(podcasts.body.items).toEqual(
      [
        { key: s.p1, name: 'Night Owls', tracked_impressions: 7, reported_impressions: 107, goal: null, pacing: null },
        { key: s.p2, name: 'Early Birds', tracked_impressions: 3, reported_impressions: 7, goal: null, pacing: null },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );
    const campaigns = await s.net.report(`?group_by=campaign&from=${yesterday}&to=${today}`);
    expect(campaigns.body.items).toEqual([
      { key: s.c1, name: 'Spring sale', tracked_impressions: 9, reported_impressions: 107, goal: 1020, pacing: null },
      { key: s.c2, name: 'Winter sale', tracked_impressions: 1, reported_impressions: 7, goal: null, pacing: null },
    ]);
    // Only today: yesterday's reports are out of the range.
    const todayOnly = await s.net.report(`?group_by=campaign&from=${today}&to=${today}`);
    expect(todayOnly.body.items.map((r) => [r.key, r.tracked_impressions, r.reported_impressions])).toEqual([
      [s.c1, 9, 7],
      [s.c2, 1, null],
    ]);
    // A range with no delivery: no podcast or campaign rows.
    expect((await s.net.report(`?group_by=podcast&from=${addDays(today, -9)}&to=${addDays(today, -8)}`)).body.items).toEqual([]);
  });

  it('narrows to a flight’s, a campaign’s or a podcast’s offers', async () => {
    const range = `&from=${yesterday}&to=${today}`;
    const ofFlight = await s.net.report(`?group_by=podcast&flight_id=${s.f1.id}${range}`);
    expect(ofFlight.body.items.map((r) => [r.key, r.tracked_impressions, r.reported_impressions])).toEqual(
      [
        [s.p1, 3, 107],
        [s.p2, 2, null],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const ofCampaign = await s.net.report(`?campaign_id=${s.c2}${range}`);
    expect(ofCampaign.body.items.map((r) => [r.key, r.tracked_impressions, r.reported_impressions])).toEqual([
      [yesterday, 0, 7],
      [today, 1, null],
    ]);
    // By flight for one podcast: its offers' counts; the goal and pacing stay the flight's own. F3 was never offered to it.
    const ofPodcast = await s.net.report(`?group_by=flight&podcast_id=${s.p1}&from=${yesterday}&to=${addDays(today, 20)}`);
    expect(ofPodcast.body.items).toEqual([
      { key: s.f1.id, name: 'Pre-roll, cpm', tracked_impressions: 3, reported_impressions: 107, goal: 20, pacing: pacing(5, 10, 'behind') },
      { key: s.f2.id, name: 'Pre-roll, flat', tracked_impressions: 4, reported_impressions: null, goal: null, pacing: null },
    ]);
    const combined = await s.net.report(`?group_by=campaign&campaign_id=${s.c1}&podcast_id=${s.p2}${range}`);
    expect(combined.body.items.map((r) => [r.key, r.tracked_impressions, r.reported_impressions])).toEqual([[s.c1, 2, null]]);
  });

  it('pages by key with a cursor of its own list: days, then ids', async () => {
    const from = addDays(today, -4);
    const keys: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Awaited<ReturnType<Network['report']>> = await s.net.report(
        `?from=${from}&to=${today}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      keys.push(...res.body.items.map((r) => r.key));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(keys).toEqual([from, addDays(from, 1), addDays(from, 2), yesterday, today]);

    const first = await s.net.report(`?group_by=podcast&from=${yesterday}&to=${today}&limit=1`);
    expect(first.body.items).toHaveLength(1);
    const second = await s.net.report(
      `?group_by=podcast&from=${yesterday}&to=${today}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor!)}`,
    );
    expect(second.body.next_cursor).toBeNull();
    expect([first.body.items[0]!.key, second.body.items[0]!.key]).toEqual([s.p1, s.p2].sort());
    // A cursor belongs to its own list: another grouping or range refuses it.
    const cursorOfPodcasts = encodeURIComponent(first.body.next_cursor!);
    expectProblem(await s.net.report(`?group_by=campaign&from=${yesterday}&to=${today}&cursor=${cursorOfPodcasts}`), 400, 'bad-request');
    expectProblem(await s.net.report(`?group_by=podcast&from=${addDays(today, -2)}&to=${today}&cursor=${cursorOfPodcasts}`), 400, 'bad-request');
  });

  it('answers the same rows as CSV with Accept: text/csv, every page of them', async () => {
    const res = await api('GET', `/networks/${s.net.n}/reports/delivery?group_by=flight&from=${yesterday}&to=${today}`, {
      token: s.net.reader,
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="delivery-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(parseCsv(res.text)).toEqual([
      [
        'key',
        'name',
        'tracked_impressions',
        'reported_impressions',
        'goal',
        'pacing.delivered',
        'pacing.expected_to_date',
        'pacing.ratio',
        'pacing.status',
      ],
      [s.f1.id, 'Pre-roll, cpm', '5', '107', '20', '5', '10', '0.5', 'behind'],
      [s.f2.id, 'Pre-roll, flat', '4', '', '', '', '', '', ''],
    ]);
    // 300 days: two pages of the CSV export (200 rows each), one file.
    const days = await api('GET', `/networks/${s.net.n}/reports/delivery?from=${addDays(today, -299)}&to=${today}`, {
      token: s.net.reader,
      headers: { accept: 'text/csv' },
    });
    const rows = parseCsv(days.text);
    expect(rows).toHaveLength(301);
    expect(rows[1]).toEqual([addDays(today, -299), '', '0', '', '', '', '', '', '']);
    expect(rows.at(-2)).toEqual([yesterday, '', '0', '107', '', '', '', '', '']);
    expect(rows.at(-1)).toEqual([today, '', '10', '7', '', '', '', '', '']);
  });

  it('refuses a bad range or grouping with 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      [`?from=${today}&to=${yesterday}`, 'from'],
      [`?from=${tomorrow}`, 'from'], // after today, the default `to`
      [`?from=${addDays(today, -366)}&to=${today}`, 'from'], // 367 days
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?group_by=week', 'group_by'],
      ['?limit=0', 'limit'],
      ['?flight_id=', 'flight_id'],
      ['?from=0000-12-31&to=0001-01-01', 'from'], // no year 0
      ['?to=0001-01-10', 'from'], // the default from would be in year 0
    ];
    for (const [query, field] of cases) {
      const problem = expectProblem(await s.net.report(query), 400, 'bad-request');
      expect(
        problem.errors?.map((e) => e.path),
        `${query} → ${JSON.stringify(problem.errors)}`,
      ).toContain(field);
    }
    const longest = await s.net.report(`?from=${addDays(today, -365)}&to=${today}&limit=200`);
    expect(longest.status, longest.text).toBe(200);
    expect(longest.body.items).toHaveLength(200);
    // The last days there are: pages end at `to`, and flights are compared with its end.
    for (const groupBy of ['day', 'flight']) {
      const last = await s.net.report(`?group_by=${groupBy}&from=9999-12-01&to=9999-12-31&limit=200`);
      expect(last.status, last.text).toBe(200);
      expect(last.body.items.map((r) => r.key).slice(-1)).toEqual(groupBy === 'day' ? ['9999-12-31'] : []);
    }
    const first = await s.net.report(`?from=0001-01-01&to=0001-01-02&limit=1`);
    expect(first.body.items.map((r) => r.key)).toEqual(['0001-01-01']);
    const next = await s.net.report(`?from=0001-01-01&to=0001-01-02&limit=1&cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expect([next.body.items.map((r) => r.key), next.body.next_cursor]).toEqual([['0001-01-02'], null]);
  });

  it('keeps networks apart: another network’s ids are 404 as filters, and its delivery never shows', async () => {
    const other = await network();
    const inventory = await adInventory(other.n);
    const otherFlight = await flight(other, inventory.campaign.id, 'Theirs', -1, 5, 50);
    const theirs = await acceptedOffer(other, { flight_id: otherFlight.id }, inventory.podcast.id);
    await impressions(theirs, 3);
    await reported(other, theirs.id, [{ date: today, impressions: 40, source: 'megaphone' }]);
    for (const filter of [
      `flight_id=${otherFlight.id}`,
      `campaign_id=${inventory.campaign.id}`,
      `podcast_id=${inventory.podcast.id}`,
      'flight_id=flt_00000000000000000000000000',
    ]) {
      expectProblem(await s.net.report(`?${filter}`), 404, 'not-found');
    }
    // A key of the other network is refused on this network's path.
    expect((await s.net.report('', other.reader)).status).toBe(403);
    for (const groupBy of ['day', 'flight', 'podcast', 'campaign']) {
      const mine = await s.net.report(`?group_by=${groupBy}&from=${yesterday}&to=${addDays(today, 20)}`);
      for (const id of [other.n, otherFlight.id, inventory.campaign.id, inventory.podcast.id]) expect(mine.text).not.toContain(id);
      const total = mine.body.items.reduce((sum, r) => sum + r.tracked_impressions, 0);
      expect(total, groupBy).toBe(groupBy === 'flight' ? 9 : 10);
    }
    const theirsByFlight = await other.report('?group_by=flight');
    expect(theirsByFlight.body.items.map((r) => [r.key, r.tracked_impressions, r.reported_impressions])).toEqual([[otherFlight.id, 3, 40]]);
  });
});

describe('a flight’s pacing', () => {
  it('is on the flight (get, list, create, update): delivered impressions against an even delivery of its goal — behind, on track, ahead, goal reached', async () => {
    const net = await network();
    const inventory = await adInventory(net.n);
    // Ten days, half gone: 10 of the goal of 20 expected by now.
    const created = await flight(net, inventory.campaign.id, 'Paced', -5, 5, 20);
    expect(created.delivered_impressions).toBe(0);
    expect(created.pacing).toEqual({ delivered: 0, expected_to_date: 10, ratio: 0, status: 'behind' });
    const flat = await flight(net, inventory.campaign.id, 'Flat', -5, 5);
    expect(flat.pacing).toBeNull();
    const listed = await api<Page<Flight>>('GET', `/networks/${net.n}/campaigns/${inventory.campaign.id}/flights`, { token: net.reader });
    expect(listed.body.items.map((f) => [f.id, f.delivered_impressions, f.pacing])).toEqual([
      [created.id, 0, created.pacing],
      [flat.id, 0, null],
    ]);
    const offer = await acceptedOffer(net, { flight_id: created.id }, inventory.podcast.id);
    const read = async () => {
      const one = await api<Flight>('GET', `/networks/${net.n}/flights/${created.id}`, { token: net.reader });
      const list = await api<Page<Flight>>('GET', `/networks/${net.n}/campaigns/${inventory.campaign.id}/flights`, { token: net.reader });
      expect(list.body.items.find((f) => f.id === created.id)).toEqual(one.body);
      const row = (await net.report('?group_by=flight')).body.items.find((r) => r.key === created.id);
      expect(row?.pacing).toEqual(one.body.pacing);
      return one.body;
    };
    await impressions(offer, 8);
    await served(offer, ['repeat', 'repeat', 'repeat']); // one impression, two repeats
    await served(offer, ['bot'], GOOGLEBOT);
    expect(await read()).toMatchObject({ delivered_impressions: 9, pacing: pacing(9, 10, 'on_track') });
    await impressions(offer, 3);
    expect(await read()).toMatchObject({ delivered_impressions: 12, pacing: pacing(12, 10, 'ahead') });
    // Host reports are shown beside the tracked count, never added to it.
    await reported(net, offer.id, [{ date: today, impressions: 500, source: 'megaphone' }]);
    expect((await read()).pacing).toEqual(pacing(12, 10, 'ahead'));
    // A goal given to the flat flight gives it pacing: nothing of the 15 expected by now.
    const raised = await api<Flight>('PATCH', `/networks/${net.n}/flights/${flat.id}`, { token: net.admin, body: { impression_goal: 30 } });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({ delivered_impressions: 0, pacing: { delivered: 0, expected_to_date: 15, ratio: 0, status: 'behind' } });
    await impressions(offer, 8);
    expect(await read()).toMatchObject({ delivered_impressions: 20, pacing: pacing(20, 10, 'goal_reached') });
  });

  it('starts behind with 8 of 10 expected', async () => {
    const net = await network();
    const inventory = await adInventory(net.n);
    const paced = await flight(net, inventory.campaign.id, 'Paced', -5, 5, 20);
    await impressions(await acceptedOffer(net, { flight_id: paced.id }, inventory.podcast.id), 8);
    const one = await api<Flight>('GET', `/networks/${net.n}/flights/${paced.id}`, { token: net.reader });
    expect(one.body).toMatchObject({ delivered_impressions: 8, pacing: pacing(8, 10, 'behind') });
  });
});
