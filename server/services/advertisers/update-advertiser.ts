import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { advertisers } from '../../../db/schema';
import { notFound } from '../../errors';
import type { AdvertiserFields } from './create-advertiser';
import { findAdvertiser, type AdvertiserRow } from './find-advertisers';
import { versionToWrite, modifiedConcurrently } from '../optimistic-lock';

/** The version the write is conditional on: the client's, or the one just read. */
export function assertAdvertiserVersion(current: AdvertiserRow, expected: number | undefined): number {
  const version = versionToWrite('Advertiser', current.version, expected);
  return version;
}

/**
 * Optimistically locked update: conditional on the version the client expects
 * (or the one read here), so of two concurrent writers exactly one wins.
 * A request that changes nothing answers the advertiser as it is.
 */
export async function updateAdvertiser(
  tx: Tx,
  input: { networkId: string; advertiserId: string; changes: Partial<AdvertiserFields>; expectedVersion: number | undefined },
): Promise<AdvertiserRow> {
  const current = await findAdvertiser(tx, input.networkId, input.advertiserId);
  if (!current) throw notFound('Advertiser');
  const version = assertAdvertiserVersion(current, input.expectedVersion);
  if (Object.keys(input.changes).length === 0) return current;
  const [row] = await tx
    .update(advertisers)
    .set({ ...input.changes, version: sql`${advertisers.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(advertisers.id, current.id), eq(advertisers.version, version)))
    .returning();
  if (!row) throw modifiedConcurrently('Advertiser');
  return row;
}
