/**
 * Tracking's rules that no single HTTP call shows (docs/measurement.md): two processes recording the
 * same listener at once count one impression, and the hourly cron makes partitions ahead, drops them
 * past retention, and deletes the salts and sources' counts that can no longer serve.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, database, type DbHandle } from '@/db/client';
import { networks, trackingDaily, trackingSalts, trackingSources } from '@/db/schema';
import { addDays, utcDay } from '@/server/services/tracking/hit-rules';
import { ensureTrackingPartitions, maintainTracking, partitionDays, partitionName } from '@/server/services/tracking/partitions';
import { recordHits, type IncomingHit } from '@/server/services/tracking/record-hits';
import { saltsFor } from '@/server/services/tracking/salts';
import { newTrackingToken } from '@/server/services/tracking/tracking-token';
import { adInventory, createNetworkRow, offerRow, useTestDatabase } from '@/tests/support/fixtures';
import { createTestDatabase, type TestDatabase } from '@/tests/support/database';

useTestDatabase();

const LISTENER_APP = 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)';

/** A podcast app's call of the tracking URL with `token`, from `source`, for `episode`. */
const listenerHit = (token: string, receivedAt: number, source: string, episode: string | null = 'ep-1'): IncomingHit => ({
  token,
  receivedAt,
  source,
  userAgent: LISTENER_APP,
  episode,
  hostTimestamp: null,
  requestId: null,
});

/** An offer's rollups summed over its days. */
async function rolledUp(networkId: string, offerId: string) {
  const rollups = await database()
    .select()
    .from(trackingDaily)
    .where(and(eq(trackingDaily.networkId, networkId), eq(trackingDaily.offerId, offerId)));
  const total = (column: 'hits' | 'impressions' | 'duplicates' | 'abnormal') => rollups.reduce((sum, r) => sum + r[column], 0);
  return { hits: total('hits'), impressions: total('impressions'), duplicates: total('duplicates'), abnormal: total('abnormal') };
}

describe('recording hits', () => {
  let secondProcess: DbHandle;
  beforeAll(() => {
    secondProcess = connect(inject('databaseUrl'), { max: 2 });
  });
  afterAll(() => secondProcess.close());

  it('counts one impression when two processes record one listener at the same moment, on either side of midnight too', async () => {
    const n = (await createNetworkRow()).id;
    const inventory = await adInventory(n);
    const trackingToken = newTrackingToken();
    const offer = await offerRow(n, inventory, { status: 'accepted', trackingToken });
    const midnight = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
    // Both days' salts exist, as they do once a day has had its first hit.
    await saltsFor({ db: database(), make: [utcDay(midnight - 1), utcDay(midnight)] });
    const rounds = 10;
    for (let i = 0; i < rounds; i++) {
      // Same day: one listener's two hits 1 ms apart. Midnight: the last millisecond of yesterday and the first of today.
      for (const [first, second, source] of [
        [Date.now() - 1, Date.now(), `198.18.0.${i}`],
        [midnight - 1, midnight, `198.18.1.${i}`],
      ] as const) {
        await Promise.all([
          recordHits({ db: database(), hits: [listenerHit(trackingToken, first, source)], sourceDailyLimit: 1000 }),
          recordHits({ db: secondProcess.db, hits: [listenerHit(trackingToken, second, source)], sourceDailyLimit: 1000 }),
        ]);
      }
    }
    expect(await rolledUp(n, offer.id)).toMatchObject({ hits: 4 * rounds, impressions: 2 * rounds, duplicates: 2 * rounds });
  });

  it('excludes the hits of sources past their daily limit when two processes flag one each at the same moment', async () => {
    const n = (await createNetworkRow()).id;
    const inventory = await adInventory(n);
    const trackingToken = newTrackingToken();
    const offer = await offerRow(n, inventory, { status: 'accepted', trackingToken });
    // Yesterday's partition exists, so each flush holds it (SHARE) while it reads the day before's keys.
    await ensureTrackingPartitions({ db: database() });
    const [a, b] = [connect(inject('databaseUrl'), { max: 1 }), connect(inject('databaseUrl'), { max: 1 })];
    try {
      // Rounds enough for each connection's prepared statements to go generic (after five runs).
      const rounds = 8;
      for (let i = 0; i < rounds; i++) {
        // Two hits of one source in a flush, over a limit of 1: the source is flagged, and the flush
        // excludes what it had counted of that source before.
        const burst = (source: string) => [0, 1].map((j) => listenerHit(trackingToken, Date.now() - j, source, `ep-${j}`));
        await Promise.all([
          recordHits({ db: a.db, hits: burst(`198.18.2.${i}`), sourceDailyLimit: 1 }),
          recordHits({ db: b.db, hits: burst(`198.18.3.${i}`), sourceDailyLimit: 1 }),
        ]);
      }
      expect(await rolledUp(n, offer.id)).toMatchObject({ hits: 4 * rounds, impressions: 0, abnormal: 4 * rounds });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('records nothing of a hit whose token is no accepted offer’s', async () => {
    const recorded = await recordHits({
      db: database(),
      hits: [listenerHit(newTrackingToken(), Date.now(), '198.18.1.1', null)],
      sourceDailyLimit: 1000,
    });
    expect(recorded).toBe(0);
  });
});

describe('the maintain-tracking cron', () => {
  let own: TestDatabase;
  let handle: DbHandle;
  beforeAll(async () => {
    own = await createTestDatabase('tracking-cron');
    handle = connect(own.url, { max: 2 });
  });
  afterAll(async () => {
    await handle?.close();
    await own?.drop();
  });

  it('makes the partitions of yesterday through 3 days ahead, and drops those past retention (35 days)', async () => {
    const db = handle.db;
    const today = utcDay(Date.now());
    await maintainTracking({ db, now: Date.now() });
    expect(await partitionDays(db)).toEqual([-1, 0, 1, 2, 3].map((d) => addDays(today, d)));
    // 37 days on: the partitions of the days that ended more than 35 days before are gone.
    const later = addDays(today, 37);
    await maintainTracking({ db, now: Date.parse(`${later}T12:00:00Z`) });
    expect(await partitionDays(db)).toEqual([2, 3, 36, 37, 38, 39, 40].map((d) => addDays(today, d)));
  });

  it('makes each partition once when several processes start at the same moment (none fails)', async () => {
    const others = [connect(own.url, { max: 1 }), connect(own.url, { max: 1 }), connect(own.url, { max: 1 })];
    try {
      for (const ahead of [200, 300, 400]) {
        const today = addDays(utcDay(Date.now()), ahead);
        const made = await Promise.all(others.map(({ db }) => ensureTrackingPartitions({ db, today })));
        const days = [-1, 0, 1, 2, 3].map((d) => addDays(today, d));
        expect(made.flat().sort()).toEqual(days.map(partitionName));
        expect(await partitionDays(handle.db)).toEqual(expect.arrayContaining(days));
      }
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });

  it('deletes the salts that can no longer dedupe (before yesterday) and the sources’ counts of those days', async () => {
    const db = handle.db;
    const today = utcDay(Date.now());
    const days = [-3, -2, -1, 0].map((d) => addDays(today, d));
    await db.insert(trackingSalts).values(days.map((day) => ({ day, salt: randomBytes(32) })));
    await db.insert(networks).values({ id: 'net_cron', name: 'Cron', mode: 'test' });
    await db.insert(trackingSources).values(days.map((day) => ({ networkId: 'net_cron', day, sourceHash: randomBytes(16), hits: 1 })));
    await maintainTracking({ db, now: Date.now() });
    expect((await db.select({ day: trackingSalts.day }).from(trackingSalts)).map((r) => r.day).sort()).toEqual(days.slice(2));
    expect((await db.select({ day: trackingSources.day }).from(trackingSources)).map((r) => r.day).sort()).toEqual(days.slice(2));
  });
});
