import { isNull, sql, type SQL } from 'drizzle-orm';
import { postgresClientOf, type Queryable } from '@/db/client';
import { tableStatement } from '@/db/statement';
import { advertisers } from '@/db/schema';
import { networkPage, type NetworkPage } from '@/server/services/page';

export type AdvertiserRow = typeof advertisers.$inferSelect;

const a = advertisers;
const liveAdvertiser = (lock: SQL) =>
  tableStatement<typeof advertisers, { networkId: string; advertiserId: string }>(
    a,
    (columns) => sql`
    select ${columns} from ${a}
    where ${a.networkId} = ${sql.placeholder('networkId')} and ${a.id} = ${sql.placeholder('advertiserId')} and ${a.deletedAt} is null
    ${lock}`,
  );
// A hot path (every new campaign reads its advertiser): one statement per lock, rendered once.
const findLive = { none: liveAdvertiser(sql``), share: liveAdvertiser(sql`for share`), update: liveAdvertiser(sql`for update`) };
/** What a new campaign runs, as Postgres receives it: the benchmark's bare server runs it (scripts/bench/service-statements.ts). */
export const LIVE_ADVERTISER_FOR_SHARE_STATEMENT = findLive.share.rendered;

/**
 * One live advertiser of the network, or undefined: a deleted advertiser and an
 * id of another network look the same as a missing one (ids are not leaked).
 */
export async function findAdvertiser({
  db,
  networkId,
  advertiserId,
  lock,
}: {
  db: Queryable;
  networkId: string;
  advertiserId: string;
  lock?: 'update' | 'share';
}): Promise<AdvertiserRow | undefined> {
  const [row] = await findLive[lock ?? 'none'](postgresClientOf(db), { networkId, advertiserId });
  return row;
}

/** Live advertisers of a network in id (= creation) order, after `afterId`. */
export async function listAdvertisers(page: NetworkPage): Promise<AdvertiserRow[]> {
  return networkPage(advertisers, page, [isNull(advertisers.deletedAt)]);
}
