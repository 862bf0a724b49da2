import { sql } from 'drizzle-orm';
import { postgresClientOf, type Database } from '@/db/client';
import { offers, trackingDaily, trackingHits, trackingSources } from '@/db/schema';
import { column, statement } from '@/db/statement';
import { TRACKING_TOKEN_PATTERN, type TrackingOutcome } from '@/domain/measurement';
import { addDays, dedupeKeyOf, DEDUPE_WINDOW_MS, isKnownBot, judgeHits, partitionLocks, sourceHashOf, utcDay, type JudgedHit } from './hit-rules';
import { partitionName } from './partitions';
import { saltsFor } from './salts';

/** A call of a tracking URL as the HTTP server took it in; `source` (an address or a /64) lives in memory only. */
export interface IncomingHit {
  token: string;
  receivedAt: number;
  source: string;
  userAgent: string;
  episode: string | null;
  hostTimestamp: Date | null;
  requestId: string | null;
}

interface TrackedOffer {
  networkId: string;
  offerId: string;
}

/*
 * Tokens seen, with their offer (null: no offer has it). A token never changes offer, and an unknown
 * one never becomes known (a token is made at acceptance and shown only then), so both are kept; the
 * map is emptied when it grows past its bound, so a flood of made-up tokens costs one lookup per flush.
 */
const tokens = new Map<string, TrackedOffer | null>();
const TOKEN_CACHE_MAX = 100_000;

/** The network of a token already looked up (no query): whose share of the recorder's buffer a hit holds. */
export function networkOfToken(token: string): string | undefined {
  return tokens.get(token)?.networkId;
}

// By token alone: the token is all a hit carries (the network comes from the row). One statement
// whatever the number of tokens (one array), so one prepared statement.
const offersByToken = statement<{ token: string; networkId: string; offerId: string }, Record<string, unknown>>(sql`
  select ${offers.trackingToken} as token, ${offers.networkId} as "networkId", ${offers.id} as "offerId"
    from ${offers} where ${offers.trackingToken} = any(${sql.placeholder('tokens')}::text[])`);

async function offersOfTokens(db: Database, wanted: string[]): Promise<void> {
  const unknown = [...new Set(wanted)].filter((token) => !tokens.has(token) && TRACKING_TOKEN_PATTERN.test(token));
  if (unknown.length === 0) return;
  const rows = await offersByToken(postgresClientOf(db), { tokens: unknown });
  if (tokens.size + unknown.length > TOKEN_CACHE_MAX) tokens.clear();
  for (const token of unknown) {
    const row = rows.find((r) => r.token === token);
    tokens.set(token, row ? { networkId: row.networkId, offerId: row.offerId } : null);
  }
}

/** Each statement's values, by placeholder name: arrays for the batch's rows (unnest), scalars otherwise. */
type Values = Record<string, unknown>;

const h = trackingHits;
const s = trackingSources;
const d = trackingDaily;

// Arrays of dates and times go as text[] and are cast in SQL: Drizzle's driver turns postgres.js's
// serializers of date[] and timestamptz[] off (it passes dates through as strings).

/*
 * Two processes must never both count one impression. A listener's hits of one day meet on their
 * source's row of that day (countSources), so the second flush waits for the first and its dedupe
 * read sees it. On either side of midnight they meet on nothing of the kind, so a flush locks the day
 * partitions of tracking_hits it writes (ROW EXCLUSIVE) and those of the other days it reads keys of
 * (SHARE): the day before each hit's, and the day after when that day has ended. Writers of one day
 * never wait for each other, nor readers of it; a writer and a reader of one day take turns. Locks
 * are taken by day, in one order, so two flushes never wait for each other in a circle; a day with no
 * partition (nothing to read) is skipped. tests/services/tracking.test.ts fails without them.
 */
const lockDays = statement<object, Values>(sql`select lock_tracking_days(${sql.placeholder('days')}::text[], ${sql.placeholder('modes')}::text[])`);

const countSources = statement<{ networkId: string; day: string; sourceHash: string; hits: number }, Values>(sql`
  insert into ${s} (${column(s.networkId)}, ${column(s.day)}, ${column(s.sourceHash)}, ${column(s.hits)}, ${column(s.flaggedAt)})
  select n, d::date, decode(h, 'hex'), c, case when c > ${sql.placeholder('limit')}::int then now() end
    from unnest(${sql.placeholder('networkIds')}::text[], ${sql.placeholder('days')}::text[], ${sql.placeholder('hashes')}::text[],
                ${sql.placeholder('counts')}::int[]) as u(n, d, h, c)
   order by n, d, h
  on conflict (${column(s.networkId)}, ${column(s.day)}, ${column(s.sourceHash)}) do update
     set ${column(s.hits)} = ${s.hits} + excluded.${column(s.hits)},
         ${column(s.flaggedAt)} = coalesce(${s.flaggedAt}, case when ${s.hits} + excluded.${column(s.hits)} > ${sql.placeholder('limit')}::int then now() end)
  returning ${s.networkId} as "networkId", ${s.day}::text as day, encode(${s.sourceHash}, 'hex') as "sourceHash", ${s.hits} as hits`);

// One index probe per (offer, key) — the latest counted hit, newest first, on tracking_hits_dedupe_idx —
// never a scan of the offer's day of hits: a popular offer's flush costs what a quiet one's does.
const countedBefore = statement<{ offerId: string; key: string; at: string }, Values>(sql`
  select u.o as "offerId", u.k as key, m.at
    from (select distinct o, k from unnest(${sql.placeholder('offerIds')}::text[], ${sql.placeholder('keys')}::text[]) as x(o, k)) as u
   cross join lateral (
     select floor(extract(epoch from ${h.receivedAt}) * 1000)::int8 as at
       from ${h}
      where ${h.networkId} = ${sql.placeholder('networkId')} and ${h.offerId} = u.o and ${h.dedupeKey} = decode(u.k, 'hex')
        and ${h.outcome} = 'counted' and ${h.receivedAt} > ${sql.placeholder('since')}::timestamptz
      order by ${h.receivedAt} desc
      limit 1) as m`);

/*
 * A source's hits of one day, updated in that day's partition by name — which the flush holds ROW
 * EXCLUSIVE already, as it writes hits of that day. Through the parent, a generic plan (a prepared
 * statement's sixth run) takes ROW EXCLUSIVE on every partition, yesterday's among them, which every
 * other flush of today holds SHARE on: two flushes flagging a source each at once deadlocked.
 * One statement per day (the name is in its text), made when a day first needs it.
 */
const excludeStatements = new Map<string, ReturnType<typeof excludeSourceHitsStatement>>();

function excludeSourceHitsStatement(day: string) {
  // Aliased as the parent, so the schema's columns name the partition's.
  return statement<{ offerId: string; hits: string }, Values>(sql`
  with excluded as (
    update ${sql.identifier(partitionName(day))} as ${h} set ${column(h.outcome)} = 'abnormal'
     where ${h.networkId} = ${sql.placeholder('networkId')}
       and ${h.sourceHash} in (select decode(x, 'hex') from unnest(${sql.placeholder('hashes')}::text[]) as x)
       and ${h.outcome} = ${sql.placeholder('was')}
    returning ${h.offerId} as offer_id)
  select offer_id as "offerId", count(*)::int8 as hits from excluded group by offer_id`);
}

function excludeSourceHits(day: string) {
  let run = excludeStatements.get(day);
  if (!run) {
    // A few days are ever recent: the map only grows past a handful in a process running for weeks.
    if (excludeStatements.size >= 8) excludeStatements.clear();
    excludeStatements.set(day, (run = excludeSourceHitsStatement(day)));
  }
  return run;
}

const insertHits = statement<object, Values>(sql`
  insert into ${h} (${column(h.networkId)}, ${column(h.offerId)}, ${column(h.receivedAt)}, ${column(h.episode)}, ${column(h.hostTimestamp)},
                    ${column(h.requestId)}, ${column(h.userAgent)}, ${column(h.sourceHash)}, ${column(h.dedupeKey)}, ${column(h.outcome)})
  select n, o, r::timestamptz, e, t::timestamptz, q, a, decode(sh, 'hex'), decode(k, 'hex'), oc
    from unnest(${sql.placeholder('networkIds')}::text[], ${sql.placeholder('offerIds')}::text[], ${sql.placeholder('receivedAt')}::text[],
                ${sql.placeholder('episodes')}::text[], ${sql.placeholder('hostTimestamps')}::text[], ${sql.placeholder('requestIds')}::text[],
                ${sql.placeholder('userAgents')}::text[], ${sql.placeholder('sourceHashes')}::text[], ${sql.placeholder('keys')}::text[],
                ${sql.placeholder('outcomes')}::text[]) as u(n, o, r, e, t, q, a, sh, k, oc)`);

const addToRollups = statement<object, Values>(sql`
  insert into ${d} (${column(d.networkId)}, ${column(d.offerId)}, ${column(d.day)}, ${column(d.hits)}, ${column(d.impressions)},
                    ${column(d.bots)}, ${column(d.duplicates)}, ${column(d.abnormal)})
  select n, o, day::date, hits, imp, bots, dup, abn
    from unnest(${sql.placeholder('networkIds')}::text[], ${sql.placeholder('offerIds')}::text[], ${sql.placeholder('days')}::text[],
                ${sql.placeholder('hits')}::int8[], ${sql.placeholder('impressions')}::int8[], ${sql.placeholder('bots')}::int8[],
                ${sql.placeholder('duplicates')}::int8[], ${sql.placeholder('abnormal')}::int8[]) as u(n, o, day, hits, imp, bots, dup, abn)
   order by n, o, day
  on conflict (${column(d.networkId)}, ${column(d.offerId)}, ${column(d.day)}) do update
     set ${column(d.hits)} = ${d.hits} + excluded.${column(d.hits)},
         ${column(d.impressions)} = ${d.impressions} + excluded.${column(d.impressions)},
         ${column(d.bots)} = ${d.bots} + excluded.${column(d.bots)},
         ${column(d.duplicates)} = ${d.duplicates} + excluded.${column(d.duplicates)},
         ${column(d.abnormal)} = ${d.abnormal} + excluded.${column(d.abnormal)}`);

interface Rollup {
  networkId: string;
  offerId: string;
  day: string;
  hits: number;
  impressions: number;
  bots: number;
  duplicates: number;
  abnormal: number;
}

const OUTCOME_COLUMN: Record<TrackingOutcome, 'impressions' | 'bots' | 'duplicates' | 'abnormal'> = {
  counted: 'impressions',
  bot: 'bots',
  duplicate: 'duplicates',
  abnormal: 'abnormal',
};

/**
 * Record a batch of hits in one transaction, by the counting rules of docs/measurement.md: the raw
 * hits (each with its outcome), the sources' daily counts, and the offers' daily rollups. Hits whose
 * token is no accepted offer's are dropped — nothing of them is written. Resolves once COMMIT has
 * returned; on any failure nothing of the batch is kept. Returns how many hits were recorded.
 */
export async function recordHits({ db, hits, sourceDailyLimit }: { db: Database; hits: readonly IncomingHit[]; sourceDailyLimit: number }) {
  await offersOfTokens(
    db,
    hits.map((hit) => hit.token),
  );
  const known = hits
    .flatMap((hit) => {
      const offer = tokens.get(hit.token);
      return offer ? [{ hit, offer, day: utcDay(hit.receivedAt) }] : [];
    })
    .sort((a, b) => a.hit.receivedAt - b.hit.receivedAt);
  if (known.length === 0) return 0;

  // Each hit's keys: under its day's salt (the one stored), the day before's, and — for a hit of a
  // day that has ended — the next day's, under which another process may have counted the listener.
  const today = utcDay(Date.now());
  const days = [...new Set(known.map((k) => k.day))];
  const salts = await saltsFor({
    db,
    make: [...new Set([...days, ...days.filter((day) => day < today).map((day) => addDays(day, 1))])],
    read: days.map((day) => addDays(day, -1)),
  });
  const rows = known.map(({ hit, offer, day }) => {
    const salt = salts.get(day)!;
    const keys = [dedupeKeyOf(salt, hit.source, hit.userAgent, hit.episode)];
    for (const other of [salts.get(addDays(day, -1)), day < today ? salts.get(addDays(day, 1)) : null]) {
      if (other) keys.push(dedupeKeyOf(other, hit.source, hit.userAgent, hit.episode));
    }
    return { hit, ...offer, day, sourceHash: sourceHashOf(salt, hit.source), keys, bot: isKnownBot(hit.userAgent) };
  });
  const networkIds = [...new Set(rows.map((r) => r.networkId))];

  return db.transaction(async (tx) => {
    const client = postgresClientOf(tx);
    // Pipelined with the reads below, one round trip for all: a connection runs its statements in the
    // order they were sent, so the locks are held before the reads run.
    const locks = partitionLocks(days, today);
    const locked = lockDays(client, { days: locks.map((l) => l.day), modes: locks.map((l) => l.mode) });

    // Hits per (network, day, source), and which sources are past the day's limit now.
    const perSource = new Map<string, { networkId: string; day: string; sourceHash: string; count: number }>();
    for (const r of rows) {
      const id = `${r.networkId} ${r.day} ${r.sourceHash}`;
      const entry = perSource.get(id) ?? { networkId: r.networkId, day: r.day, sourceHash: r.sourceHash, count: 0 };
      entry.count++;
      perSource.set(id, entry);
    }
    const sources = [...perSource.values()];
    const since = new Date(rows[0]!.hit.receivedAt - DEDUPE_WINDOW_MS).toISOString();
    const [, counts, ...earlier] = await Promise.all([
      locked,
      countSources(client, {
        limit: sourceDailyLimit,
        networkIds: sources.map((x) => x.networkId),
        days: sources.map((x) => x.day),
        hashes: sources.map((x) => x.sourceHash),
        counts: sources.map((x) => x.count),
      }),
      // Statement by statement per network: each names its network (the shard key, docs/SCALING.md).
      ...networkIds.map((networkId) => {
        const mine = rows.filter((r) => r.networkId === networkId);
        return countedBefore(client, {
          networkId,
          since,
          offerIds: mine.flatMap((r) => r.keys.map(() => r.offerId)),
          keys: mine.flatMap((r) => r.keys),
        });
      }),
    ]);
    const flagged = new Set<string>();
    const newlyFlagged: Array<{ networkId: string; day: string; sourceHash: string }> = [];
    for (const row of counts) {
      const id = `${row.networkId} ${row.day} ${row.sourceHash}`;
      if (row.hits <= sourceDailyLimit) continue;
      flagged.add(id);
      if (row.hits - perSource.get(id)!.count <= sourceDailyLimit) newlyFlagged.push(row);
    }
    const counted = new Map<string, number>();
    for (const row of earlier.flat()) {
      const id = `${row.offerId} ${row.key}`;
      counted.set(id, Math.max(counted.get(id) ?? 0, Number(row.at)));
    }

    const judged: JudgedHit[] = rows.map((r) => ({
      offerId: r.offerId,
      receivedAt: r.hit.receivedAt,
      bot: r.bot,
      abnormalSource: flagged.has(`${r.networkId} ${r.day} ${r.sourceHash}`),
      keys: r.keys,
    }));
    const outcomes = judgeHits(judged, counted);

    const rollups = new Map<string, Rollup>();
    const rollupOf = (networkId: string, offerId: string, day: string) => {
      const id = `${networkId} ${offerId} ${day}`;
      let rollup = rollups.get(id);
      if (!rollup) rollups.set(id, (rollup = { networkId, offerId, day, hits: 0, impressions: 0, bots: 0, duplicates: 0, abnormal: 0 }));
      return rollup;
    };
    rows.forEach((r, i) => {
      const rollup = rollupOf(r.networkId, r.offerId, r.day);
      rollup.hits++;
      rollup[OUTCOME_COLUMN[outcomes[i]!]]++;
    });

    // A source that just went past the limit: its earlier hits of that day are excluded too.
    for (const source of newlyFlagged) {
      for (const was of ['counted', 'duplicate'] as const) {
        const changed = await excludeSourceHits(source.day)(client, { networkId: source.networkId, hashes: [source.sourceHash], was });
        for (const { offerId, hits: n } of changed) {
          const rollup = rollupOf(source.networkId, offerId, source.day);
          rollup[OUTCOME_COLUMN[was]] -= Number(n);
          rollup.abnormal += Number(n);
        }
      }
    }

    const sums = [...rollups.values()];
    await Promise.all([
      insertHits(client, {
        networkIds: rows.map((r) => r.networkId),
        offerIds: rows.map((r) => r.offerId),
        receivedAt: rows.map((r) => new Date(r.hit.receivedAt).toISOString()),
        episodes: rows.map((r) => r.hit.episode),
        hostTimestamps: rows.map((r) => r.hit.hostTimestamp?.toISOString() ?? null),
        requestIds: rows.map((r) => r.hit.requestId),
        userAgents: rows.map((r) => r.hit.userAgent),
        sourceHashes: rows.map((r) => r.sourceHash),
        keys: rows.map((r) => r.keys[0]!),
        outcomes,
      }),
      addToRollups(client, {
        networkIds: sums.map((x) => x.networkId),
        offerIds: sums.map((x) => x.offerId),
        days: sums.map((x) => x.day),
        hits: sums.map((x) => x.hits),
        impressions: sums.map((x) => x.impressions),
        bots: sums.map((x) => x.bots),
        duplicates: sums.map((x) => x.duplicates),
        abnormal: sums.map((x) => x.abnormal),
      }),
    ]);
    return rows.length;
  });
}
