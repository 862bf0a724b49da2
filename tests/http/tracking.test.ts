/**
 * Tracking URLs (docs/measurement.md): a host's ad server, simulated here over real HTTP, calls an
 * accepted offer's tracking URL — listeners on IPv4 and IPv6, bots, repeats inside and past the
 * rolling 24 hours, one abnormal source, unknown tokens, HEAD and the .gif variant — and the rollups
 * say exactly what the counting rules say. A server of this file's own: it believes X-Forwarded-For
 * from loopback (the ad server forwards each listener's address), a source is flagged past 8 hits a
 * day, and at most 40 hits wait, 20 of one network. The database failing under load, and the statements of this flow,
 * are checked in tracking-durability.test.ts.
 */
import { request } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adInventoryOverHttp, api } from '@/tests/support/api';
import { useOwnServer } from '@/tests/support/own-server';
import { addDays, dedupeKeyOf, sourceHashOf, utcDay } from '@/server/services/tracking/hit-rules';

const LIMIT = 8;
const BUFFER = 40;
const SHARE = 0.5;

const tracking = useOwnServer(
  'tracking',
  {
    WORKER: 'off',
    TRUSTED_PROXIES: 'loopback',
    TRACKING_SOURCE_DAILY_LIMIT: String(LIMIT),
    TRACKING_BUFFER_HITS: String(BUFFER),
    TRACKING_NETWORK_SHARE: String(SHARE),
  },
  { startTimeoutMs: 240_000 },
);

const LISTENER_APP = 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)';
const OTHER_APP = 'Spotify/8.9.30 iOS/17.4 (iPhone15,2)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Every address this file's ad server forwards: none may be stored anywhere (the last test looks). */
const ADDRESSES = new Set<string>();

/** Yesterday's salt, written before any hit so that the server reads it (a day's salt is made by its first hit). */
const YESTERDAY_SALT = randomBytes(32);

beforeAll(async () => {
  await tracking.sql`insert into tracking_salts (day, salt) values (${addDays(utcDay(Date.now()), -1)}::date, ${YESTERDAY_SALT})`;
});

const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
  api<T>(method, path, { token: tracking.token, baseUrl: tracking.server.url, body });

interface Offer {
  networkId: string;
  offerId: string;
  trackingUrl: string;
  /** The tracking URL's path (`/t/trk_…`), called on this server's own address. */
  path: string;
}

/** A network of its own (sources are counted per network and day), an offer made and accepted over /v1. */
async function acceptedOffer(): Promise<Offer> {
  const network = await call<{ id: string }>('POST', '/networks', { name: `Tracking ${randomUUID().slice(0, 8)}` });
  expect(network.status).toBe(201);
  const n = network.body.id;
  const inventory = await adInventoryOverHttp((method, path, body) => call(method, path, body), n);
  const offer = await call<{ id: string; tracking_url: string | null }>('POST', `/networks/${n}/offers`, {
    campaign_id: inventory.campaignId,
    podcast_id: inventory.podcastId,
  });
  expect(offer.status).toBe(201);
  expect(offer.body.tracking_url).toBeNull();
  const accepted = await call<{ tracking_url: string }>('POST', `/networks/${n}/offers/${offer.body.id}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  const url = new URL(accepted.body.tracking_url.replace(/[{}]/g, (c) => (c === '{' ? '%7B' : '%7D')));
  return { networkId: n, offerId: offer.body.id, trackingUrl: accepted.body.tracking_url, path: url.pathname };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * The host's ad server: calls `path` for a listener at `ip` with its user agent (none when null),
 * filling the macros in. Over node:http, so that the headers are exactly these.
 */
function adServer(
  path: string,
  listener: { ip: string; ua: string | null; episode?: string | null; method?: 'GET' | 'HEAD'; gif?: boolean; rid?: string; ts?: string },
): Promise<Answer> {
  ADDRESSES.add(listener.ip);
  const query = new URLSearchParams();
  if (listener.episode !== null) query.set('episode', listener.episode ?? 'ep-1');
  query.set('ts', listener.ts ?? String(Math.floor(Date.now() / 1000)));
  query.set('rid', listener.rid ?? randomUUID());
  const target = new URL(tracking.server.url);
  const headers: Record<string, string> = { 'x-forwarded-for': listener.ip };
  if (listener.ua !== null) headers['user-agent'] = listener.ua;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, method: listener.method ?? 'GET', path: `${path}${listener.gif ? '.gif' : ''}?${query}`, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function served(path: string, listener: Parameters<typeof adServer>[1]): Promise<void> {
  const answer = await adServer(path, listener);
  expect(answer.status, `${listener.ip} ${listener.ua}`).toBe(listener.gif ? 200 : 204);
}

interface Counts {
  hits: number;
  impressions: number;
  bots: number;
  duplicates: number;
  abnormal: number;
}

/** The offer's rollups, over every day. */
async function countsOf(offer: Offer): Promise<Counts> {
  const [row] = await tracking.sql<Counts[]>`
    select coalesce(sum(hits), 0)::int as hits, coalesce(sum(impressions), 0)::int as impressions, coalesce(sum(bots), 0)::int as bots,
           coalesce(sum(duplicates), 0)::int as duplicates, coalesce(sum(abnormal), 0)::int as abnormal
      from tracking_daily where network_id = ${offer.networkId} and offer_id = ${offer.offerId}`;
  return row!;
}

/** The same counts from the raw hits: the rollups must always agree with them. */
async function countsFromHits(offer: Offer): Promise<Counts> {
  const [row] = await tracking.sql<Counts[]>`
    select count(*)::int as hits, (count(*) filter (where outcome = 'counted'))::int as impressions,
           (count(*) filter (where outcome = 'bot'))::int as bots, (count(*) filter (where outcome = 'duplicate'))::int as duplicates,
           (count(*) filter (where outcome = 'abnormal'))::int as abnormal
      from tracking_hits where network_id = ${offer.networkId} and offer_id = ${offer.offerId}`;
  return row!;
}

async function expectCounts(offer: Offer, expected: Counts): Promise<void> {
  expect(await countsOf(offer)).toEqual(expected);
  expect(await countsFromHits(offer)).toEqual(expected);
}

/** Time passing, for the hits recorded so far: each is moved `hours` into the past (across partitions when it must). */
async function hoursPass(offer: Offer, hours: number): Promise<void> {
  const oldest = new Date(Date.now() - (hours + 48) * 3_600_000);
  await ensurePartitionsFrom(utcDay(oldest.getTime()));
  await tracking.sql`update tracking_hits set received_at = received_at - make_interval(hours => ${hours})
                      where network_id = ${offer.networkId} and offer_id = ${offer.offerId}`;
}

/** Partitions for the days from `day` to today (the service makes yesterday's and the days ahead). */
async function ensurePartitionsFrom(day: string): Promise<void> {
  for (let d = day; d < utcDay(Date.now()); d = addDays(d, 1)) {
    const name = `tracking_hits_p${d.replaceAll('-', '')}`;
    await tracking.sql.unsafe(
      `create table if not exists "${name}" partition of tracking_hits for values from ('${d}T00:00:00Z') to ('${addDays(d, 1)}T00:00:00Z')`,
    );
  }
}

describe('an accepted offer’s tracking URL', () => {
  it('is on the offer and in offer.accepted’s data, with documented macros, and names nothing of the network', async () => {
    const offer = await acceptedOffer();
    expect(offer.trackingUrl).toMatch(/^http:\/\/localhost:\d+\/t\/trk_[0-9a-f]{32}\?episode=\{episode_id\}&ts=\{timestamp\}&rid=\{request_id\}$/);
    expect(offer.trackingUrl).not.toContain(offer.networkId);
    expect(offer.trackingUrl).not.toContain(offer.offerId);
    const read = await call<{ tracking_url: string }>('GET', `/networks/${offer.networkId}/offers/${offer.offerId}`);
    expect(read.body.tracking_url).toBe(offer.trackingUrl);
    const events = await call<{ items: Array<{ type: string; data: Record<string, unknown> }> }>('GET', `/networks/${offer.networkId}/events`);
    const accepted = events.body.items.find((e) => e.type === 'offer.accepted');
    expect(accepted?.data).toMatchObject({ offer_id: offer.offerId, tracking_url: offer.trackingUrl });
    // Each offer has its own token.
    expect((await acceptedOffer()).path).not.toBe(offer.path);
  });

  it('counts one impression per source + user agent + offer + episode, and no bot', async () => {
    const offer = await acceptedOffer();
    const listener = { ip: '203.0.113.10', ua: LISTENER_APP };
    for (let i = 0; i < 3; i++) await served(offer.path, { ...listener, episode: 'ep-1' }); // 1 impression, 2 repeats
    await served(offer.path, { ...listener, episode: 'ep-2' }); // another episode: another impression
    await served(offer.path, { ip: listener.ip, ua: OTHER_APP, episode: 'ep-1' }); // another app on the same address: another
    await served(offer.path, { ip: '203.0.113.99', ua: GOOGLEBOT });
    await served(offer.path, { ip: '203.0.113.99', ua: GOOGLEBOT });
    await served(offer.path, { ip: '203.0.113.98', ua: 'curl/8.5.0' });
    await served(offer.path, { ip: '203.0.113.97', ua: null }); // no user agent: not a listener's app
    await expectCounts(offer, { hits: 9, impressions: 3, bots: 4, duplicates: 2, abnormal: 0 });
  });

  it('keeps the macros as sent, a placeholder left unfilled as absent, and no address', async () => {
    const offer = await acceptedOffer();
    await served(offer.path, { ip: '203.0.113.20', ua: LISTENER_APP, episode: 'ep-42', ts: '1764400000', rid: 'req-7' });
    await served(offer.path, { ip: '203.0.113.21', ua: LISTENER_APP, episode: '{episode_id}', ts: '{timestamp}', rid: '{request_id}' });
    const rows = await tracking.sql<
      Array<{ episode: string | null; host_timestamp: Date | null; request_id: string | null; user_agent: string; source_hash: Buffer }>
    >`select episode, host_timestamp, request_id, user_agent, source_hash from tracking_hits
       where network_id = ${offer.networkId} and offer_id = ${offer.offerId} order by received_at`;
    expect(rows.map(({ episode, host_timestamp, request_id, user_agent }) => ({ episode, host_timestamp, request_id, user_agent }))).toEqual([
      { episode: 'ep-42', host_timestamp: new Date(1_764_400_000_000), request_id: 'req-7', user_agent: LISTENER_APP },
      { episode: null, host_timestamp: null, request_id: null, user_agent: LISTENER_APP },
    ]);
    expect(rows[0]!.source_hash).toHaveLength(16);
    await expectCounts(offer, { hits: 2, impressions: 2, bots: 0, duplicates: 0, abnormal: 0 });
  });

  it('counts an IPv6 listener by its /64: neighbours in one /64 are one source, another /64 is another', async () => {
    const offer = await acceptedOffer();
    const ua = LISTENER_APP;
    await served(offer.path, { ip: '2001:db8:aa:1::1', ua });
    await served(offer.path, { ip: '2001:db8:aa:1:ffff:ffff:ffff:fffe', ua }); // same /64: a repeat
    await served(offer.path, { ip: '2001:db8:aa:1:0:0:0:1', ua }); // the first address, spelt out
    await served(offer.path, { ip: '2001:db8:aa:2::1', ua }); // the next /64: another listener
    await served(offer.path, { ip: '2001:0db8:00aa:0003::0001', ua }); // and another, written with leading zeros
    await served(offer.path, { ip: '198.51.100.7', ua });
    await served(offer.path, { ip: '::ffff:198.51.100.7', ua }); // the same IPv4 listener, IPv4-mapped
    await expectCounts(offer, { hits: 7, impressions: 4, bots: 0, duplicates: 3, abnormal: 0 });
  });

  it('counts a repeat again once 24 hours have passed since the impression it repeats (a repeat does not extend the window)', async () => {
    const offer = await acceptedOffer();
    const listener = { ip: '192.0.2.44', ua: LISTENER_APP, episode: 'ep-9' };
    await served(offer.path, listener);
    await hoursPass(offer, 23);
    await served(offer.path, listener); // 23 h after the impression: a repeat
    await expectCounts(offer, { hits: 2, impressions: 1, bots: 0, duplicates: 1, abnormal: 0 });
    await hoursPass(offer, 2);
    await served(offer.path, listener); // 25 h after it (the repeat 2 h ago does not count): a new impression
    await expectCounts(offer, { hits: 3, impressions: 2, bots: 0, duplicates: 1, abnormal: 0 });
    await served(offer.path, listener); // and that one is repeated now
    await expectCounts(offer, { hits: 4, impressions: 2, bots: 0, duplicates: 2, abnormal: 0 });
  });

  it('dedupes across midnight: an impression hashed with yesterday’s salt still makes a repeat today', async () => {
    const offer = await acceptedOffer();
    const listener = { ip: '192.0.2.55', ua: LISTENER_APP, episode: 'ep-3' };
    const yesterday = addDays(utcDay(Date.now()), -1);
    // Yesterday's last second: always within 24 hours of now (but for the day's last second).
    const at = new Date(`${yesterday}T23:59:59.000Z`);
    await tracking.sql`
      insert into tracking_hits (network_id, offer_id, received_at, episode, user_agent, source_hash, dedupe_key, outcome)
      values (${offer.networkId}, ${offer.offerId}, ${at}, ${listener.episode}, ${listener.ua}, ${Buffer.from(sourceHashOf(YESTERDAY_SALT, listener.ip), 'hex')},
              ${Buffer.from(dedupeKeyOf(YESTERDAY_SALT, listener.ip, listener.ua, listener.episode), 'hex')}, 'counted')`;
    await tracking.sql`insert into tracking_daily (network_id, offer_id, day, hits, impressions) values (${offer.networkId}, ${offer.offerId}, ${yesterday}::date, 1, 1)`;
    await served(offer.path, listener);
    await expectCounts(offer, { hits: 2, impressions: 1, bots: 0, duplicates: 1, abnormal: 0 });
    // Today's salt is another: the hashes of today's hit are not yesterday's.
    const [today] = await tracking.sql<Array<{ source_hash: Buffer }>>`
      select source_hash from tracking_hits where network_id = ${offer.networkId} and offer_id = ${offer.offerId} and received_at > ${at}`;
    expect(today!.source_hash.toString('hex')).not.toBe(sourceHashOf(YESTERDAY_SALT, listener.ip));
  });

  it(`flags a source past ${LIMIT} hits to a network in a UTC day and excludes all its hits of that day`, async () => {
    const offer = await acceptedOffer();
    const other = await acceptedOffer(); // another network
    const abnormal = '198.51.100.200';
    await served(offer.path, { ip: '198.51.100.1', ua: LISTENER_APP }); // an ordinary listener
    for (let i = 1; i <= LIMIT; i++) await served(offer.path, { ip: abnormal, ua: LISTENER_APP, episode: `ep-${i}` });
    // At the limit, not past it: every one of those episodes counts.
    await expectCounts(offer, { hits: LIMIT + 1, impressions: LIMIT + 1, bots: 0, duplicates: 0, abnormal: 0 });
    await served(offer.path, { ip: abnormal, ua: LISTENER_APP, episode: 'ep-1' }); // a repeat, and one past the limit
    await expectCounts(offer, { hits: LIMIT + 2, impressions: 1, bots: 0, duplicates: 0, abnormal: LIMIT + 1 });
    await served(offer.path, { ip: abnormal, ua: OTHER_APP, episode: 'ep-new' }); // flagged for the rest of the day, whatever it sends
    await served(offer.path, { ip: '198.51.100.2', ua: LISTENER_APP }); // others still count
    await expectCounts(offer, { hits: LIMIT + 4, impressions: 2, bots: 0, duplicates: 0, abnormal: LIMIT + 2 });
    // The rule is per network: the same source on another network's offer is counted there.
    await served(other.path, { ip: abnormal, ua: LISTENER_APP });
    await expectCounts(other, { hits: 1, impressions: 1, bots: 0, duplicates: 0, abnormal: 0 });
    const [source] = await tracking.sql<Array<{ hits: number; flagged: boolean }>>`
      select hits, flagged_at is not null as flagged from tracking_sources where network_id = ${offer.networkId} order by hits desc limit 1`;
    expect(source).toEqual({ hits: LIMIT + 2, flagged: true });
  });

  it('answers HEAD like GET, and a 1×1 GIF for .gif — each one a hit', async () => {
    const offer = await acceptedOffer();
    const head = await adServer(offer.path, { ip: '203.0.113.30', ua: LISTENER_APP, method: 'HEAD' });
    expect(head.status).toBe(204);
    expect(head.body).toHaveLength(0);
    const gif = await adServer(offer.path, { ip: '203.0.113.31', ua: LISTENER_APP, gif: true });
    expect(gif.status).toBe(200);
    expect(gif.headers['content-type']).toBe('image/gif');
    expect(gif.body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(gif.body.readUInt16LE(6)).toBe(1); // width
    expect(gif.body.readUInt16LE(8)).toBe(1); // height
    expect(gif.headers['content-length']).toBe(String(gif.body.length));
    const headGif = await adServer(offer.path, { ip: '203.0.113.32', ua: LISTENER_APP, gif: true, method: 'HEAD' });
    expect(headGif.status).toBe(200);
    expect(headGif.headers['content-length']).toBe(String(gif.body.length));
    expect(headGif.body).toHaveLength(0);
    for (const answer of [head, gif, headGif]) {
      expect(answer.headers['cache-control']).toMatch(/no-store/);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    await expectCounts(offer, { hits: 3, impressions: 3, bots: 0, duplicates: 0, abnormal: 0 });
  });

  it('answers an unknown token exactly as a known one, and records nothing of it', async () => {
    const offer = await acceptedOffer();
    const [before] = await tracking.sql<Array<{ n: number }>>`select count(*)::int as n from tracking_hits`;
    const unknown = [`/t/trk_${randomBytes(16).toString('hex')}`, '/t/not-a-token', `/t/${offer.path.slice(3, -1)}`, '/t/'];
    const shape = (a: Answer) => ({ status: a.status, headers: { ...a.headers, date: undefined }, body: a.body.toString('hex') });
    for (const variant of [{}, { gif: true }, { method: 'HEAD' as const }, { method: 'HEAD' as const, gif: true }]) {
      const known = await adServer(offer.path, { ip: '203.0.113.40', ua: LISTENER_APP, ...variant });
      for (const path of unknown) {
        const answer = await adServer(path, { ip: '203.0.113.41', ua: LISTENER_APP, ...variant });
        expect(shape(answer), `${path} ${JSON.stringify(variant)}`).toEqual(shape(known));
      }
    }
    const [after] = await tracking.sql<Array<{ n: number }>>`select count(*)::int as n from tracking_hits`;
    expect(after!.n - before!.n).toBe(4); // the known token's four calls, nothing else
    await expectCounts(offer, { hits: 4, impressions: 1, bots: 0, duplicates: 3, abnormal: 0 });
    const post = await fetch(`${tracking.server.url}${offer.path}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('refuses a network’s hits past its share of the buffer at once (503, Retry-After), keeps the ones it took, and holds up neither another network nor the API', async () => {
    const flooded = await acceptedOffer();
    const other = await acceptedOffer();
    // Each token called once: from then on the service knows whose share its hits hold.
    await served(flooded.path, { ip: '10.8.0.1', ua: LISTENER_APP });
    await served(other.path, { ip: '10.8.0.2', ua: LISTENER_APP });
    const share = BUFFER * SHARE;
    // The database holds every flush up: a lock on the sources' counts, which each flush writes.
    const blocker = await tracking.sql.reserve();
    await blocker`begin`;
    await blocker`lock table tracking_sources in exclusive mode`;
    let answers: Answer[];
    let otherAnswer: Answer;
    try {
      const flood = Array.from({ length: share + 25 }, (_, i) => adServer(flooded.path, { ip: `10.9.${i >> 8}.${i & 255}`, ua: LISTENER_APP }));
      // Those past the network's share are answered while the others wait.
      const refused = await new Promise<number>((resolve) => {
        let n = 0;
        for (const p of flood) void p.then((a) => a.status === 503 && ++n === 25 && resolve(n));
      });
      expect(refused).toBe(25);
      // Another network's hit is taken (it waits for the same flush), and the API answers at once.
      const otherHit = adServer(other.path, { ip: '10.7.0.1', ua: LISTENER_APP });
      const started = performance.now();
      expect((await call('GET', '/me')).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
      await blocker`commit`;
      answers = await Promise.all(flood);
      otherAnswer = await otherHit;
    } finally {
      blocker.release();
    }
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable).toHaveLength(25);
    for (const a of unavailable) expect(a.headers['retry-after']).toBe('1');
    expect(answers.filter((a) => a.status === 204)).toHaveLength(share);
    expect(otherAnswer.status).toBe(204);
    await expectCounts(flooded, { hits: share + 1, impressions: share + 1, bots: 0, duplicates: 0, abnormal: 0 });
    await expectCounts(other, { hits: 2, impressions: 2, bots: 0, duplicates: 0, abnormal: 0 });
  });

  it('stores no listener address anywhere: not in any table, not in the log', async () => {
    expect(ADDRESSES.size).toBeGreaterThan(20);
    const tables = await tracking.sql<Array<{ name: string }>>`
      select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname in ('public', 'graphile_worker')`;
    const leaks: string[] = [];
    for (const { name } of tables) {
      const rows = await tracking.sql.unsafe<Array<{ row: string }>>(`select t::text as row from ${name} t`);
      for (const { row } of rows) for (const ip of ADDRESSES) if (row.includes(ip)) leaks.push(`${name}: ${ip}`);
    }
    expect(leaks).toEqual([]);
    const log = tracking.server.output();
    expect([...ADDRESSES].filter((ip) => log.includes(ip))).toEqual([]);
  });
});
