import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { advertisers } from '@/db/schema';
import { notFound } from '@/server/errors';
import { adCategoryIds } from '@/server/services/ad-categories/ad-categories';
import type { AdvertiserFields } from './create-advertiser';
import { findAdvertiser, type AdvertiserRow } from './find-advertisers';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';

/**
 * Optimistically locked update: conditional on the version the client expects
 * (or the one read here), so of two concurrent writers exactly one wins.
 * A request that changes nothing answers the advertiser as it is.
 */
export async function updateAdvertiser({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  advertiserId: string;
  changes: Partial<AdvertiserFields>;
  expectedVersion: number | undefined;
}): Promise<AdvertiserRow> {
  const current = await findAdvertiser({ db: tx, networkId: input.networkId, advertiserId: input.advertiserId });
  if (!current) throw notFound('Advertiser');
  const version = versionToWrite('Advertiser', current.version, input.expectedVersion);
  if (Object.keys(input.changes).length === 0) return current;
  const { categories, ...changes } = input.changes;
  const [row] = await updateVersioned({
    tx,
    table: advertisers,
    networkId: current.networkId,
    set: { ...changes, ...(categories ? { categories: adCategoryIds(categories, 'categories') } : {}) },
    where: eq(advertisers.id, current.id),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Advertiser');
  return row;
}
