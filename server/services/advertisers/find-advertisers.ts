import { and, asc, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { advertisers } from '@/db/schema';
import type { NetworkPage } from '@/server/services/page';

export type AdvertiserRow = typeof advertisers.$inferSelect;

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
  const query = db
    .select()
    .from(advertisers)
    .where(and(eq(advertisers.networkId, networkId), eq(advertisers.id, advertiserId), isNull(advertisers.deletedAt)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** Live advertisers of a network in id (= creation) order, after `afterId`. */
export async function listAdvertisers({ db, networkId, afterId, take }: NetworkPage): Promise<AdvertiserRow[]> {
  const conditions: SQL[] = [eq(advertisers.networkId, networkId), isNull(advertisers.deletedAt)];
  if (afterId) conditions.push(gt(advertisers.id, afterId));
  return db
    .select()
    .from(advertisers)
    .where(and(...conditions))
    .orderBy(asc(advertisers.id))
    .limit(take);
}
