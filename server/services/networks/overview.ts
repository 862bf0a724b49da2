import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { CAMPAIGN_STATUSES, CREATIVE_STATUSES, OFFER_STATUSES } from '@/domain/statuses';

type Counts<K extends string> = Record<K, number>;

export interface NetworkOverview {
  advertisers: number;
  campaigns: Counts<(typeof CAMPAIGN_STATUSES)[number]>;
  podcasts: { total: number; opted_in: number };
  offers: Counts<(typeof OFFER_STATUSES)[number]>;
  creatives: Counts<(typeof CREATIVE_STATUSES)[number]>;
}

function zeros<K extends string>(keys: readonly K[]): Counts<K> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Counts<K>;
}

/** Counts of a network's advertising objects, by status, in one round trip. */
export async function networkOverview({ db, networkId }: { db: Queryable; networkId: string }): Promise<NetworkOverview> {
  const rows = await db.execute<{ kind: string; status: string; n: string }>(sql`
    select 'advertisers' as kind, '' as status, count(*) as n from advertisers where network_id = ${networkId} and deleted_at is null
    union all
    select 'campaigns', status, count(*) from campaigns where network_id = ${networkId} group by status
    union all
    select 'podcasts', opt_in_status, count(*) from podcasts where network_id = ${networkId} group by opt_in_status
    union all
    select 'offers', status, count(*) from offers where network_id = ${networkId} group by status
    union all
    select 'creatives', status, count(*) from creatives where network_id = ${networkId} group by status`);
  const overview: NetworkOverview = {
    advertisers: 0,
    campaigns: zeros(CAMPAIGN_STATUSES),
    podcasts: { total: 0, opted_in: 0 },
    offers: zeros(OFFER_STATUSES),
    creatives: zeros(CREATIVE_STATUSES),
  };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.kind === 'advertisers') overview.advertisers = n;
    else if (row.kind === 'podcasts') {
      overview.podcasts.total += n;
      if (row.status === 'opted_in') overview.podcasts.opted_in = n;
    } else if (row.kind === 'campaigns' || row.kind === 'offers' || row.kind === 'creatives') {
      const bucket = overview[row.kind] as Record<string, number>;
      if (row.status in bucket) bucket[row.status] = n;
    }
  }
  return overview;
}
