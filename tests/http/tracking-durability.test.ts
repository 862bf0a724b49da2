/**
 * A tracking hit acknowledged is a hit kept (docs/measurement.md, "Durability"): the ad server's
 * 204 is sent only after the COMMIT that holds the hit. Checked the hard ways — Postgres cut off
 * while an ad server sends hits, the acknowledgement of a COMMIT lost on the wire, the service
 * killed with SIGKILL under load — and every hit answered 204 must be in the database afterwards.
 * The same run reads every statement of the tracking flow off the wire: each names its network
 * (docs/SCALING.md), but the one lookup by token.
 */
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@/db/client';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { maintainTracking, partitionDays, partitionName } from '@/server/services/tracking/partitions';
import { adInventoryOverHttp, api } from '@/tests/support/api';
import { proxiedTestDatabase } from '@/tests/support/pg-proxy';
import { API_ONLY, startServerProcess, type ServerProcess } from '@/tests/support/server-process';
import { loadSqlParser, tenantRelations, unroutedReferences } from '@/tests/support/tenant-statements';

const token = generateApiKeyToken('test');
const LISTENER_APP = 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)';
const SETTINGS = { ...API_ONLY, BOOTSTRAP_SUPERUSER_TOKEN: token, WORKER: 'off', TRUSTED_PROXIES: 'loopback', TRACKING_SOURCE_DAILY_LIMIT: '5' };

let proxied: Awaited<ReturnType<typeof proxiedTestDatabase>>;
let server: ServerProcess;
let sql: postgres.Sql;
const statements: string[] = [];

beforeAll(async () => {
  proxied = await proxiedTestDatabase('tracking-durability', { onStatement: (text) => statements.push(text) });
  server = await startServerProcess({ ...SETTINGS, DATABASE_URL: proxied.viaProxy });
  sql = postgres(proxied.database.url, { max: 1, onnotice: () => undefined });
}, 240_000);

afterAll(async () => {
  proxied?.proxy.acceptConnections();
  await sql?.end();
  await server?.stop();
  await proxied?.proxy.close();
  await proxied?.database.drop();
});

async function acceptedOffer(baseUrl: string): Promise<{ networkId: string; offerId: string; path: string }> {
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => api<T>(method, path, { token, baseUrl, body });
  const n = (await call<{ id: string }>('POST', '/networks', { name: 'Durability' })).body.id;
  const inventory = await adInventoryOverHttp((method, path, body) => call(method, path, body), n);
  const offer = await call<{ id: string }>('POST', `/networks/${n}/offers`, { campaign_id: inventory.campaignId, podcast_id: inventory.podcastId });
  const accepted = await call<{ tracking_url: string }>('POST', `/networks/${n}/offers/${offer.body.id}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  return { networkId: n, offerId: offer.body.id, path: new URL(accepted.body.tracking_url.replace(/[{}]/g, '')).pathname };
}

/** One call of the ad server: the status, or 0 when the connection failed (the process was gone). */
function hit(baseUrl: string, path: string, listener: { ip: string; rid: string; episode?: string }): Promise<number> {
  const target = new URL(baseUrl);
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${path}?episode=${listener.episode ?? 'ep-1'}&rid=${listener.rid}`,
        headers: { 'x-forwarded-for': listener.ip, 'user-agent': LISTENER_APP },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

/**
 * `senders` ad servers sending hits one after another, each listener new (so each hit is an
 * impression), until `stop()` resolves; then every answer by request id.
 */
async function load(baseUrl: string, path: string, senders: number, stop: Promise<void>): Promise<Map<string, number>> {
  const answers = new Map<string, number>();
  let stopped = false;
  void stop.then(() => (stopped = true));
  let n = 0;
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (!stopped) {
        const i = n++;
        const rid = `r-${i}-${randomUUID().slice(0, 8)}`;
        answers.set(rid, await hit(baseUrl, path, { ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, rid }));
      }
    }),
  );
  return answers;
}

async function keptRequestIds(offer: { networkId: string; offerId: string }): Promise<Set<string>> {
  const rows = await sql<Array<{ rid: string }>>`
    select request_id as rid from tracking_hits where network_id = ${offer.networkId} and offer_id = ${offer.offerId}`;
  return new Set(rows.map((r) => r.rid));
}

/** The rollups agree with the raw hits: as many impressions as hits kept (every listener here is new). */
async function expectRollupsOf(offer: { networkId: string; offerId: string }, kept: number): Promise<void> {
  const [row] = await sql<Array<{ hits: number; impressions: number }>>`
    select coalesce(sum(hits), 0)::int as hits, coalesce(sum(impressions), 0)::int as impressions
      from tracking_daily where network_id = ${offer.networkId} and offer_id = ${offer.offerId}`;
  expect(row).toEqual({ hits: kept, impressions: kept });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('a tracking hit acknowledged is a hit kept', () => {
  it('with Postgres cut off under load: 503 while it is gone, and every 204 is in the database', { timeout: 60_000 }, async () => {
    const offer = await acceptedOffer(server.url);
    const stop = (async () => {
      await pause(600);
      proxied.proxy.refuseConnections();
      await pause(1_200);
      proxied.proxy.acceptConnections();
      // Until hits are kept again (postgres.js reconnects within half a second), and a while after.
      await pause(2_500);
    })();
    const answers = await load(server.url, offer.path, 12, stop);
    const statuses = [...answers.values()];
    const kept = await keptRequestIds(offer);
    const acknowledged = [...answers].filter(([, status]) => status === 204).map(([rid]) => rid);
    expect(statuses.filter((s) => s === 503).length, 'some hits were refused while Postgres was gone').toBeGreaterThan(0);
    expect(acknowledged.length, 'and hits were kept before and after').toBeGreaterThan(20);
    expect(statuses.every((s) => s === 204 || s === 503)).toBe(true);
    expect(
      acknowledged.filter((rid) => !kept.has(rid)),
      'acknowledged but not kept',
    ).toEqual([]);
    await expectRollupsOf(offer, kept.size);
  });

  it('when a COMMIT’s acknowledgement is lost: 503 (the hit is kept), and the ad server’s retry is counted as a repeat', async () => {
    const offer = await acceptedOffer(server.url);
    const listener = { ip: '192.0.2.77', rid: 'lost-ack' };
    proxied.proxy.loseNextCommitAcknowledgement();
    const lostBefore = proxied.proxy.lostAcknowledgements();
    expect(await hit(server.url, offer.path, listener)).toBe(503);
    expect(proxied.proxy.lostAcknowledgements()).toBe(lostBefore + 1);
    // Kept all the same: not acknowledged is not the same as not kept, and the retry finds it.
    expect(await keptRequestIds(offer)).toEqual(new Set(['lost-ack']));
    let retry = 0;
    for (let i = 0; i < 20 && (retry = await hit(server.url, offer.path, listener)) !== 204; i++) await pause(200);
    expect(retry).toBe(204);
    const [row] = await sql<Array<{ hits: number; impressions: number; duplicates: number }>>`
      select hits::int, impressions::int, duplicates::int from tracking_daily where network_id = ${offer.networkId} and offer_id = ${offer.offerId}`;
    expect(row).toEqual({ hits: 2, impressions: 1, duplicates: 1 });
  });

  it('with the service killed (SIGKILL) under load: every 204 is in the database', { timeout: 120_000 }, async () => {
    const victim = await startServerProcess({ ...SETTINGS, DATABASE_URL: proxied.database.url });
    try {
      const offer = await acceptedOffer(victim.url);
      const answers = await load(
        victim.url,
        offer.path,
        12,
        (async () => {
          await pause(1_500);
          await victim.stop('SIGKILL');
        })(),
      );
      const acknowledged = [...answers].filter(([, status]) => status === 204).map(([rid]) => rid);
      expect(acknowledged.length).toBeGreaterThan(20);
      expect([...answers.values()].filter((s) => s === 0).length, 'hits cut by the kill').toBeGreaterThan(0);
      const kept = await keptRequestIds(offer);
      expect(
        acknowledged.filter((rid) => !kept.has(rid)),
        'acknowledged but not kept',
      ).toEqual([]);
      await expectRollupsOf(offer, kept.size);
    } finally {
      await victim.stop('SIGKILL');
    }
  });

  it('names the network in every statement of the flow but the lookup by token (the statement check of docs/SCALING.md)', async () => {
    // A source past the daily limit (its hits excluded), and the hourly cron, through the proxy too.
    const offer = await acceptedOffer(server.url);
    for (let i = 0; i < 6; i++) expect(await hit(server.url, offer.path, { ip: '192.0.2.99', rid: `flood-${i}`, episode: `ep-${i}` })).toBe(204);
    const [flagged] = await sql<Array<{ n: number }>>`
      select count(*)::int as n from tracking_hits where network_id = ${offer.networkId} and outcome = 'abnormal'`;
    expect(flagged!.n).toBe(6);
    const cron = connect(proxied.viaProxy, { max: 1 });
    let partitions: string[];
    try {
      await maintainTracking({ db: cron.db });
      partitions = (await partitionDays(cron.db)).map(partitionName);
    } finally {
      await cron.close();
    }
    await loadSqlParser();
    // A day's partition, written to by name (a source's hits excluded), is held to the same rule.
    const tenant = new Set([...tenantRelations(), ...partitions]);
    const tracking = [...new Set(statements)].filter((text) => /tracking_/.test(text));
    for (const done of [
      /insert into "tracking_hits"/,
      /update "tracking_hits_p\d{8}" as "tracking_hits" set "outcome" = 'abnormal'/,
      /delete from "tracking_sources"/,
      /partition of "tracking_hits"/,
    ]) {
      expect(
        tracking.some((text) => done.test(text)),
        String(done),
      ).toBe(true);
    }
    const unrouted = tracking.flatMap((text) => unroutedReferences(text, tenant).map((ref) => ({ ...ref, text: text.trim() })));
    expect(unrouted).toEqual([
      // The token is all a hit carries: the network comes from the offer's row (cached per process).
      { relation: 'offers', how: 'read', text: expect.stringMatching(/from "offers" where "offers"\."tracking_token" = any\(\$1::text\[\]\)$/) },
    ]);
  });
});
