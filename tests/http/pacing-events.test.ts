import { afterAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '@/db/client';
import { checkFlightPacing } from '@/server/services/flights/pacing-alerts';
import { utcDay } from '@/server/services/tracking/hit-rules';
import { adInventoryOverHttp, type Page } from '@/tests/support/api';
import { useOwnServer } from '@/tests/support/own-server';
import { startPostgresProxy } from '@/tests/support/pg-proxy';
import { loadSqlParser, tenantRelations, unroutedReferences } from '@/tests/support/tenant-statements';
import { startWebhookReceiver, type WebhookReceiver } from '@/tests/support/webhook-receiver';

/**
 * Pacing events (issue 39; docs/measurement.md, "Pacing events") on a service of this file's own
 * that delivers webhooks to loopback: flights made and booked over /v1, impressions delivered by
 * calling an accepted offer's tracking URL, each network's signed webhooks received by a real
 * receiver. The daily check is run when a test says so, by calling what the `check-flight-pacing`
 * task calls, on connections of the test's own (two at once for the race); time moves by changing
 * the rows that say when something happened (a flight's dates, an alert's day).
 */
const own = useOwnServer('pacing', { WEBHOOK_ALLOW_PRIVATE: '1' });
const receivers: WebhookReceiver[] = [];
const handles: DbHandle[] = [];
afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
  await Promise.all(receivers.map((r) => r.close()));
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LISTENER_APP = 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PACING_TYPES = ['flight.goal_reached', 'flight.underdelivering'] as const;

/** A connection of the test's own to the service's database, as the worker's task has one. */
function connection(url = own.databaseUrl): DbHandle {
  const handle = connect(url, { max: 2 });
  handles.push(handle);
  return handle;
}
let sweeper: DbHandle | undefined;
/** One run of the daily check, as the cron's task runs it. */
const check = (options: { perBatch?: number; db?: DbHandle } = {}) =>
  checkFlightPacing({ db: (options.db ?? (sweeper ??= connection())).db, ...(options.perBatch ? { perBatch: options.perBatch } : {}) });

interface Net {
  n: string;
  campaignId: string;
  podcastId: string;
  /** The network's webhook receiver, subscribed to both pacing events (when asked for). */
  hooks?: WebhookReceiver;
}

async function network(name: string, { subscribed = true } = {}): Promise<Net> {
  const created = await own.call<{ id: string }>('POST', '/networks', { name });
  expect(created.status).toBe(201);
  const n = created.body.id;
  const { campaignId, podcastId } = await adInventoryOverHttp(own.call, n);
  if (!subscribed) return { n, campaignId, podcastId };
  let secret = '';
  const hooks = await startWebhookReceiver(() => secret);
  receivers.push(hooks);
  const hook = await own.call<{ secret: string }>('POST', `/networks/${n}/webhooks`, { url: hooks.url, events: [...PACING_TYPES] });
  expect(hook.status, hook.text).toBe(201);
  secret = hook.body.secret;
  return { n, campaignId, podcastId, hooks };
}

interface Flight {
  id: string;
  campaign_id: string;
  starts_at: string;
  ends_at: string;
}

/** A flight of the network's campaign, made over /v1: cpm with `goal`, or flat without one. */
async function flight(net: Net, { from, to, goal }: { from: number; to: number; goal: number | null }): Promise<Flight> {
  const made = await own.call<Flight>('POST', `/networks/${net.n}/campaigns/${net.campaignId}/flights`, {
    name: 'Pre-roll',
    starts_at: new Date(from).toISOString(),
    ends_at: new Date(to).toISOString(),
    placement: 'pre',
    pricing: goal === null ? { model: 'flat', amount_cents: 50_000, currency: 'USD' } : { model: 'cpm', amount_cents: 2_500, currency: 'USD' },
    ...(goal === null ? {} : { impression_goal: goal }),
  });
  expect(made.status, made.text).toBe(201);
  return made.body;
}

/** The flight offered to the network's podcast and accepted: the path of its tracking URL (`/t/trk_…`). */
async function booked(net: Net, f: Flight): Promise<string> {
  const offer = await own.call<{ id: string }>('POST', `/networks/${net.n}/offers`, { flight_id: f.id, podcast_id: net.podcastId });
  expect(offer.status, offer.text).toBe(201);
  const accepted = await own.call<{ tracking_url: string }>('POST', `/networks/${net.n}/offers/${offer.body.id}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  return new URL(accepted.body.tracking_url.replace(/[{}]/g, encodeURIComponent)).pathname;
}

/** The host's ad server serves the ad in `episode` and calls the tracking URL, as a listener's app. */
async function served(path: string, episode: string, userAgent = LISTENER_APP): Promise<void> {
  const res = await fetch(`${own.server.url}${path}?episode=${episode}&ts=${Math.floor(Date.now() / 1000)}`, {
    headers: { 'user-agent': userAgent },
  });
  expect(res.status).toBe(204);
}

interface PacingEvent {
  id: string;
  type: string;
  occurred_at: string;
  data: Record<string, unknown> & { flight_id: string };
}

/** The network's events of `type` about the flight, from its event log. */
async function events(net: Net, type: (typeof PACING_TYPES)[number], flightId: string): Promise<PacingEvent[]> {
  const res = await own.call<Page<PacingEvent>>('GET', `/networks/${net.n}/events?type=${type}&object_id=${flightId}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.items;
}

/** Every pacing event in the network's log, whatever the flight. */
async function allPacingEvents(net: Net): Promise<PacingEvent[]> {
  const lists = await Promise.all(
    PACING_TYPES.map(async (type) => (await own.call<Page<PacingEvent>>('GET', `/networks/${net.n}/events?type=${type}&limit=100`)).body.items),
  );
  return lists.flat();
}

/** What the network's receiver got about the flight: verified deliveries of `type`, their envelopes. */
function delivered(net: Net, type: string, flightId: string) {
  return net.hooks!.received.flatMap((r) => {
    const envelope = JSON.parse(r.raw.toString('utf8')) as { id: string; type: string; data: { flight_id?: string } };
    return r.verified && envelope.type === type && envelope.data.flight_id === flightId ? [envelope] : [];
  });
}

/** Time passing for the check: the flight's dates moved (as the flight's own rows say when it runs). */
async function moveFlight(net: Net, f: Flight, from: number, to: number): Promise<void> {
  await own.sql`update flights set starts_at = ${new Date(from)}, ends_at = ${new Date(to)} where network_id = ${net.n} and id = ${f.id}`;
}

/** A day passing for the flight's alerts: each one the check sent is moved one UTC day back. */
async function aDayPasses(net: Net, f: Flight): Promise<void> {
  await own.sql`update flight_pacing_alerts set day = day - 1 where network_id = ${net.n} and flight_id = ${f.id}`;
}

describe('flight.underdelivering', () => {
  it('a live flight behind pace: one event a day and one delivery, the check run twice in a row or twice at once', async () => {
    const net = await network('Behind');
    const now = Date.now();
    const behind = await flight(net, { from: now - 5 * DAY, to: now + 5 * DAY, goal: 1_000 });

    await check();
    await check();
    const [event, ...more] = await events(net, 'flight.underdelivering', behind.id);
    expect(more).toEqual([]);
    expect(event!.data).toEqual({
      flight_id: behind.id,
      campaign_id: net.campaignId,
      goal: 1_000,
      delivered: 0,
      expected_to_date: 500,
      ratio: 0,
      starts_at: behind.starts_at,
      ends_at: behind.ends_at,
      day: utcDay(Date.now()),
    });
    await expect
      .poll(() => delivered(net, 'flight.underdelivering', behind.id), { timeout: 10_000 })
      .toEqual([expect.objectContaining({ id: expect.any(String) })]);
    expect(delivered(net, 'flight.underdelivering', behind.id)[0]!.data).toEqual(event!.data);

    // Two workers checking at the same moment, each on its own connections: still one event.
    const [a, b] = [connection(), connection()];
    const racer = await flight(net, { from: now - 2 * DAY, to: now + 8 * DAY, goal: 10_000 });
    const both = await Promise.all([check({ db: a }), check({ db: b })]);
    expect(both.map((r) => r.underdelivering).sort()).toEqual([0, 1]);
    expect(await events(net, 'flight.underdelivering', racer.id)).toHaveLength(1);
    expect(await events(net, 'flight.underdelivering', behind.id)).toHaveLength(1);

    // The next UTC day, still behind: told again, once.
    await aDayPasses(net, behind);
    await Promise.all([check({ db: a }), check({ db: b })]);
    await check();
    const days = (await events(net, 'flight.underdelivering', behind.id)).map((e) => e.data.day);
    expect(days).toEqual([utcDay(Date.now()), utcDay(Date.now())]);
    expect((await own.sql`select day::text from flight_pacing_alerts where flight_id = ${behind.id} order by day`).map((r) => r.day)).toEqual([
      utcDay(Date.now() - DAY),
      utcDay(Date.now()),
    ]);
    await expect.poll(() => delivered(net, 'flight.underdelivering', behind.id).length, { timeout: 10_000 }).toBe(2);
    await expect.poll(() => delivered(net, 'flight.underdelivering', racer.id).length, { timeout: 10_000 }).toBe(1);
  });
});

describe('flight.goal_reached', () => {
  it('a flight reaching its goal through its tracking URL: one event and one delivery, never again', async () => {
    const net = await network('Goal');
    const now = Date.now();
    // Just started: nothing is expected yet, so it is on track until its goal is reached.
    const f = await flight(net, { from: now - HOUR, to: now + 30 * DAY, goal: 5 });
    const path = await booked(net, f);

    for (let i = 0; i < 4; i++) await served(path, `ep-${i}`);
    // A crawler and a repeat of the same listener and episode: not impressions.
    await served(path, 'ep-5', GOOGLEBOT);
    await served(path, 'ep-0');
    await check();
    expect(await events(net, 'flight.goal_reached', f.id)).toEqual([]);
    expect(await events(net, 'flight.underdelivering', f.id)).toEqual([]);

    // Reached: two workers check at the same moment.
    await served(path, 'ep-4');
    expect((await Promise.all([check({ db: connection() }), check({ db: connection() })])).map((r) => r.goalReached).sort()).toEqual([0, 1]);
    const [event, ...more] = await events(net, 'flight.goal_reached', f.id);
    expect(more).toEqual([]);
    expect(event!.data).toEqual({ flight_id: f.id, campaign_id: net.campaignId, goal: 5, delivered: 5, reached_on: utcDay(Date.now()) });

    // More impressions, the check again (in a row, at once), and another day: nothing more.
    for (let i = 5; i < 8; i++) await served(path, `ep-${i}`);
    await check();
    await aDayPasses(net, f);
    await check();
    expect(await events(net, 'flight.goal_reached', f.id)).toHaveLength(1);
    expect(await events(net, 'flight.underdelivering', f.id)).toEqual([]);
    await expect.poll(() => delivered(net, 'flight.goal_reached', f.id), { timeout: 10_000 }).toHaveLength(1);
    expect(delivered(net, 'flight.goal_reached', f.id)[0]!.data).toEqual(event!.data);
  });

  it('an ended flight: its goal is still told within a day of its end, with the day it was reached; never underdelivering', async () => {
    const net = await network('Ended');
    const now = Date.now();
    const reached = await flight(net, { from: now - HOUR, to: now + 10 * DAY, goal: 2 });
    const path = await booked(net, reached);
    await served(path, 'ep-1');
    await served(path, 'ep-2');
    const short = await flight(net, { from: now - HOUR, to: now + 10 * DAY, goal: 1_000 });
    const late = await flight(net, { from: now - HOUR, to: now + 10 * DAY, goal: 1 });
    await served(await booked(net, late), 'ep-1');
    // Then they ended: two hours ago, with the impressions counted three days ago; two days ago for the last.
    await moveFlight(net, reached, now - 10 * DAY, now - 2 * HOUR);
    await own.sql`update tracking_daily set day = day - 3 where network_id = ${net.n}
                    and offer_id in (select id from offers where network_id = ${net.n} and flight_id = ${reached.id})`;
    await moveFlight(net, short, now - 10 * DAY, now - 2 * HOUR);
    await moveFlight(net, late, now - 10 * DAY, now - 2 * DAY);

    await check();
    const [event, ...more] = await events(net, 'flight.goal_reached', reached.id);
    expect(more).toEqual([]);
    expect(event!.data).toEqual({ flight_id: reached.id, campaign_id: net.campaignId, goal: 2, delivered: 2, reached_on: utcDay(now - 3 * DAY) });
    expect(await allPacingEvents(net)).toEqual([event]);
  });
});

describe('what the check leaves alone', () => {
  it('a flight without a goal, a scheduled one, one ended long ago, another network’s: nothing for them, nothing to this network', async () => {
    const mine = await network('Quiet');
    const theirs = await network('Elsewhere', { subscribed: false });
    const now = Date.now();
    await flight(mine, { from: now - 5 * DAY, to: now + 5 * DAY, goal: null });
    await flight(mine, { from: now + DAY, to: now + 10 * DAY, goal: 1_000 });
    const over = await flight(mine, { from: now - HOUR, to: now + DAY, goal: 1_000 });
    await moveFlight(mine, over, now - 20 * DAY, now - 2 * DAY);
    const other = await flight(theirs, { from: now - 5 * DAY, to: now + 5 * DAY, goal: 1_000 });

    await check();
    // The other network's behind flight is told to that network, and only there.
    expect(await events(theirs, 'flight.underdelivering', other.id)).toHaveLength(1);
    expect(await events(mine, 'flight.underdelivering', other.id)).toEqual([]);
    expect(await allPacingEvents(mine)).toEqual([]);
    const deliveries = await own.sql`
      select count(*)::int as n from webhook_deliveries where network_id = ${mine.n}`;
    expect(deliveries[0]!.n).toBe(0);
    expect(mine.hooks!.received).toEqual([]);
  });
});

describe('bounded per network', () => {
  it('networks take turns, a batch of flights each: a network with many flights does not hold back another’s event', async () => {
    const busy = await network('Busy', { subscribed: false });
    const quiet = await network('Small', { subscribed: false });
    const now = Date.now();
    const busyFlights = [];
    for (let i = 0; i < 5; i++) busyFlights.push(await flight(busy, { from: now - 5 * DAY, to: now + 5 * DAY, goal: 1_000 }));
    const alone = await flight(quiet, { from: now - 5 * DAY, to: now + 5 * DAY, goal: 1_000 });

    expect(await check({ perBatch: 2 })).toEqual({ goalReached: 0, underdelivering: 6 });
    // Event ids sort in the order they were made (db/ids.ts): the quiet network's came in the first
    // turn, before the busy network's second batch of two.
    const busyEvents = (await Promise.all(busyFlights.map((f) => events(busy, 'flight.underdelivering', f.id)))).flat();
    expect(busyEvents).toHaveLength(5);
    const order = busyEvents.map((e) => e.id).sort();
    const [quietEvent] = await events(quiet, 'flight.underdelivering', alone.id);
    expect(quietEvent!.id < order[2]!).toBe(true);
    expect(await check({ perBatch: 2 })).toEqual({ goalReached: 0, underdelivering: 0 });
  });
});

describe('the statement check', () => {
  it('names the network in every statement of the check but the one that finds which networks have flights to check', async () => {
    const net = await network('Statements', { subscribed: false });
    const now = Date.now();
    await flight(net, { from: now - 5 * DAY, to: now + 5 * DAY, goal: 1_000 });
    const goal = await flight(net, { from: now - HOUR, to: now + 5 * DAY, goal: 1 });
    await served(await booked(net, goal), 'ep-1');

    const statements: string[] = [];
    const target = new URL(own.databaseUrl);
    const proxy = await startPostgresProxy({ host: target.hostname, port: Number(target.port) }, { onStatement: (text) => statements.push(text) });
    try {
      const viaProxy = new URL(own.databaseUrl);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const handle = connection(viaProxy.toString());
      expect(await check({ db: handle })).toEqual({ goalReached: 1, underdelivering: 1 });
      await handle.close();
    } finally {
      await proxy.close();
    }
    for (const done of [/from "flights"/, /insert into "flight_pacing_alerts"/, /from "tracking_daily"/, /insert into "events"/]) {
      expect(
        statements.some((text) => done.test(text)),
        String(done),
      ).toBe(true);
    }
    await loadSqlParser();
    const tenant = tenantRelations();
    const unrouted = [...new Set(statements)].flatMap((text) => unroutedReferences(text, tenant).map((ref) => ({ ...ref, text: text.trim() })));
    expect(unrouted).toEqual([
      // The SWEEPS entry of tests/http/tenant-routing.test.ts.
      {
        relation: 'flights',
        how: 'read',
        text: expect.stringMatching(
          /^select distinct "network_id" from "flights" where \("flights"\."impression_goal" is not null and "flights"\."deleted_at" is null and "flights"\."starts_at" <= \$1 and "flights"\."ends_at" > \$2\) order by/,
        ),
      },
    ]);
  });
});

describe('the event catalog', () => {
  it('lists both events with their data schemas (GET /event-types)', async () => {
    const catalog = await own.call<Page<{ type: string; data_schema: { properties: Record<string, unknown>; required: string[] } }>>(
      'GET',
      '/event-types',
    );
    const byType = new Map(catalog.body.items.map((i) => [i.type, i.data_schema]));
    expect(byType.get('flight.goal_reached')?.required).toEqual(['flight_id', 'campaign_id', 'goal', 'delivered', 'reached_on']);
    expect(byType.get('flight.underdelivering')?.required).toEqual([
      'flight_id',
      'campaign_id',
      'goal',
      'delivered',
      'expected_to_date',
      'ratio',
      'starts_at',
      'ends_at',
      'day',
    ]);
  });
});
