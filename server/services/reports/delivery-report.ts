import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { campaigns, deliveryReports, flights, offers, podcasts, trackingDaily } from '@/db/schema';
import { badRequest, found } from '@/server/errors';
import { findCampaign } from '@/server/services/campaigns/find-campaigns';
import { findFlight } from '@/server/services/flights/find-flights';
import { findPodcast } from '@/server/services/podcasts/find-podcasts';
import { addDays, DAY_MS, utcDay } from '@/server/services/tracking/hit-rules';
import { deliveredByFlight } from './flight-delivered';

export type DeliveryGrouping = 'day' | 'flight' | 'podcast' | 'campaign';

/** Which offers a report counts: the network's, narrowed by each filter given. */
export interface DeliveryFilter {
  flightId?: string | undefined;
  campaignId?: string | undefined;
  podcastId?: string | undefined;
}

/** One row: a day, or a flight, podcast or campaign (`key` is its id). */
export interface DeliveryRow {
  /** The day (YYYY-MM-DD) or the id: what the page is keyed and ordered by. */
  id: string;
  name: string | null;
  tracked: number;
  /** Null when nothing was reported for the row's offers in the range. */
  reported: number | null;
  goal: number | null;
  /** For a flight: what it needs for its pacing (its dates, and its tracked impressions over its whole life). */
  flight?: { startsAt: Date; endsAt: Date; delivered: number };
}

/** The first day a report can cover. */
const FIRST_DAY = '0001-01-01';

/**
 * The report's days: `to` defaults to today (UTC), `from` to `defaultDays − 1` days before `to`;
 * from after to, or more than `maxDays` days, is a 400 on `from`.
 */
export function reportRange({
  from,
  to,
  maxDays,
  defaultDays,
  now = Date.now(),
}: {
  from?: string | undefined;
  to?: string | undefined;
  maxDays: number;
  defaultDays: number;
  now?: number;
}): { from: string; to: string } {
  const end = to ?? utcDay(now);
  const start = from ?? addDays(end, -(defaultDays - 1));
  // Postgres has no year 0 (nor do days before it read as YYYY-MM-DD).
  if (start < FIRST_DAY)
    throw badRequest(`Invalid request: from (${start}) is before ${FIRST_DAY}.`, [{ path: 'from', message: `must be ${FIRST_DAY} or later.` }]);
  if (start > end)
    throw badRequest(`Invalid request: from (${start}) is after to (${end}).`, [{ path: 'from', message: `must not be after to (${end}).` }]);
  const count = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
  if (count > maxDays) {
    throw badRequest(`Invalid request: a report covers at most ${maxDays} days (${start} to ${end} is ${count}).`, [
      { path: 'from', message: `must be at most ${maxDays - 1} days before to (${end}).` },
    ]);
  }
  return { from: start, to: end };
}

/**
 * The filters name the network's own flight, campaign and podcast, or the report is a 404 — as a
 * read of that resource would be (another network's id looks like a missing one).
 */
export async function assertFilterInNetwork({ db, networkId, filter }: { db: Queryable; networkId: string; filter: DeliveryFilter }) {
  if (filter.flightId) found(await findFlight({ db, networkId, flightId: filter.flightId }), 'Flight');
  if (filter.campaignId) found(await findCampaign({ db, networkId, campaignId: filter.campaignId }), 'Campaign');
  if (filter.podcastId) found(await findPodcast({ db, networkId, podcastId: filter.podcastId }), 'Podcast');
}

/** The conditions on `offers` that the filters make. */
function offerConditions(filter: DeliveryFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.flightId) conditions.push(eq(offers.flightId, filter.flightId));
  if (filter.campaignId) conditions.push(eq(offers.campaignId, filter.campaignId));
  if (filter.podcastId) conditions.push(eq(offers.podcastId, filter.podcastId));
  return conditions;
}

const t = trackingDaily;
const r = deliveryReports;

/**
 * One page of a delivery report over the days `from`..`to`, read from the daily rollups
 * (`tracking_daily`) and the host reports (`delivery_reports`) only — never the raw hits — in a
 * number of statements that does not grow with the rows: one for a page of days, three for a page
 * of flights (the counts, the flights, their whole-life delivery for pacing), three for campaigns,
 * two for podcasts. Rows come in key order after `afterKey`, at most `take`.
 *
 * - by day: every day of the range, zeros included;
 * - by flight, podcast or campaign: each one whose offers in scope have a tracking-URL call (counted
 *   or not) or a host report in the range; by flight also each live flight with a goal whose dates
 *   overlap the range (with `podcast_id`: offered to that podcast), delivered or not, so that an
 *   under-delivering flight shows. Offers without a flight are not in a by-flight report.
 */
export async function deliveryReport({ groupBy, ...query }: ReportPage & { groupBy: DeliveryGrouping }): Promise<DeliveryRow[]> {
  return groupBy === 'day' ? byDay(query) : byEntity({ ...query, groupBy });
}

/** A page of a report: the network, the days, the filters, and the keyset page after `afterKey`. */
interface ReportPage {
  db: Queryable;
  networkId: string;
  from: string;
  to: string;
  filter: DeliveryFilter;
  afterKey: string | undefined;
  take: number;
}

async function byDay({ db, networkId, from, to, filter, afterKey, take }: ReportPage): Promise<DeliveryRow[]> {
  // In milliseconds, not text: no day past `to` is ever written (after 9999-12-31 comes +010000-01-01).
  const end = Date.parse(`${to}T00:00:00Z`);
  const start = afterKey ? Date.parse(`${afterKey}T00:00:00Z`) + DAY_MS : Date.parse(`${from}T00:00:00Z`);
  if (start > end) return [];
  const lastMs = Math.min(start + (take - 1) * DAY_MS, end);
  const [first, last] = [utcDay(start), utcDay(lastMs)];
  const scoped = offerConditions(filter);
  // Without a filter every offer of the network counts: no need to read the offers.
  const join = (table: typeof t | typeof r) =>
    scoped.length ? sql`join ${offers} on ${offers.networkId} = ${table.networkId} and ${offers.id} = ${table.offerId}` : sql``;
  const offerScope = scoped.length ? sql`and ${and(eq(offers.networkId, networkId), ...scoped)}` : sql``;
  const rows = await db.execute<{ day: string; tracked: string | null; reported: string | null }>(sql`
    select d.day, sum(d.tracked)::bigint as tracked, sum(d.reported)::bigint as reported from (
      select to_char(${t.day}, 'YYYY-MM-DD') as day, ${t.impressions} as tracked, null::bigint as reported
        from ${t} ${join(t)}
       where ${t.networkId} = ${networkId} and ${t.day} between ${first} and ${last} ${offerScope}
      union all
      select to_char(${r.day}, 'YYYY-MM-DD'), null, ${r.impressions}
        from ${r} ${join(r)}
       where ${r.networkId} = ${networkId} and ${r.day} between ${first} and ${last} ${offerScope}
    ) d
    group by d.day`);
  const byDate = new Map(rows.map((row) => [row.day, row]));
  const days: DeliveryRow[] = [];
  for (let ms = start; ms <= lastMs; ms += DAY_MS) {
    const day = utcDay(ms);
    const row = byDate.get(day);
    days.push({ id: day, name: null, tracked: Number(row?.tracked ?? 0), reported: row?.reported == null ? null : Number(row.reported), goal: null });
  }
  return days;
}

async function byEntity({
  db,
  networkId,
  from,
  to,
  groupBy,
  filter,
  afterKey,
  take,
}: ReportPage & { groupBy: Exclude<DeliveryGrouping, 'day'> }): Promise<DeliveryRow[]> {
  const key = { flight: offers.flightId, podcast: offers.podcastId, campaign: offers.campaignId }[groupBy];
  const offerScope = and(
    eq(offers.networkId, networkId),
    ...offerConditions(filter),
    sql`${key} is not null`,
    afterKey ? sql`${key} > ${afterKey}` : undefined,
  );
  // By flight, the live flights with a goal that run in the range count too, delivered or not.
  const goals =
    groupBy === 'flight'
      ? sql`
      union all
      select ${flights.id}, null, null
        from ${flights}
       where ${and(
         eq(flights.networkId, networkId),
         isNull(flights.deletedAt),
         sql`${flights.impressionGoal} is not null`,
         sql`${flights.startsAt} < (${to}::date + 1)::timestamp at time zone 'UTC'`,
         sql`${flights.endsAt} > ${from}::date::timestamp at time zone 'UTC'`,
         filter.flightId ? eq(flights.id, filter.flightId) : undefined,
         filter.campaignId ? eq(flights.campaignId, filter.campaignId) : undefined,
         filter.podcastId
           ? sql`exists (select 1 from ${offers} where ${offers.networkId} = ${networkId} and ${offers.flightId} = ${flights.id} and ${offers.podcastId} = ${filter.podcastId})`
           : undefined,
         afterKey ? sql`${flights.id} > ${afterKey}` : undefined,
       )}`
      : sql``;
  const counts = await db.execute<{ key: string; tracked: string | null; reported: string | null }>(sql`
    select d.key, sum(d.tracked)::bigint as tracked, sum(d.reported)::bigint as reported from (
      select ${key} as key, ${t.impressions} as tracked, null::bigint as reported
        from ${t} join ${offers} on ${offers.networkId} = ${t.networkId} and ${offers.id} = ${t.offerId}
       where ${t.networkId} = ${networkId} and ${t.day} between ${from} and ${to} and ${offerScope}
      union all
      select ${key}, null, ${r.impressions}
        from ${r} join ${offers} on ${offers.networkId} = ${r.networkId} and ${offers.id} = ${r.offerId}
       where ${r.networkId} = ${networkId} and ${r.day} between ${from} and ${to} and ${offerScope}
      ${goals}
    ) d
    group by d.key
    order by d.key
    limit ${take}`);
  const keys = counts.map((row) => row.key);
  if (keys.length === 0) return [];
  const described = await entitiesOf({ db, networkId, groupBy, keys });
  return counts.map((row) => {
    const entity = described.get(row.key);
    return {
      id: row.key,
      name: entity?.name ?? null,
      tracked: Number(row.tracked ?? 0),
      reported: row.reported === null ? null : Number(row.reported),
      goal: entity?.goal ?? null,
      ...(entity?.flight ? { flight: entity.flight } : {}),
    };
  });
}

/** The names and goals of a page's flights, podcasts or campaigns (and a flight's dates and whole-life delivery), by id. */
async function entitiesOf({
  db,
  networkId,
  groupBy,
  keys,
}: {
  db: Queryable;
  networkId: string;
  groupBy: Exclude<DeliveryGrouping, 'day'>;
  keys: string[];
}): Promise<Map<string, Pick<DeliveryRow, 'name' | 'goal' | 'flight'>>> {
  if (groupBy === 'podcast') {
    const rows = await db
      .select({ id: podcasts.id, name: podcasts.name })
      .from(podcasts)
      .where(and(eq(podcasts.networkId, networkId), inArray(podcasts.id, keys)));
    return new Map(rows.map((row) => [row.id, { name: row.name, goal: null }]));
  }
  if (groupBy === 'campaign') {
    const [names, goals] = await Promise.all([
      db
        .select({ id: campaigns.id, name: campaigns.name })
        .from(campaigns)
        .where(and(eq(campaigns.networkId, networkId), inArray(campaigns.id, keys))),
      db
        .select({ campaignId: flights.campaignId, goal: sql<string | null>`sum(${flights.impressionGoal})` })
        .from(flights)
        .where(and(eq(flights.networkId, networkId), inArray(flights.campaignId, keys), isNull(flights.deletedAt)))
        .groupBy(flights.campaignId),
    ]);
    const goalOf = new Map(goals.map((row) => [row.campaignId, row.goal === null ? null : Number(row.goal)]));
    return new Map(names.map((row) => [row.id, { name: row.name, goal: goalOf.get(row.id) ?? null }]));
  }
  const [rows, delivered] = await Promise.all([
    db
      .select({ id: flights.id, name: flights.name, goal: flights.impressionGoal, startsAt: flights.startsAt, endsAt: flights.endsAt })
      .from(flights)
      .where(and(eq(flights.networkId, networkId), inArray(flights.id, keys))),
    deliveredByFlight({ db, networkId, flightIds: keys }),
  ]);
  return new Map(
    rows.map((row) => [
      row.id,
      { name: row.name, goal: row.goal, flight: { startsAt: row.startsAt, endsAt: row.endsAt, delivered: delivered.get(row.id) ?? 0 } },
    ]),
  );
}
