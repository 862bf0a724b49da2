import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { advertisers, campaigns } from '@/db/schema';
import { conflict, notFound } from '@/server/errors';
import { findAdvertiser, type AdvertiserRow } from './find-advertisers';
import { modifiedConcurrently, updateVersioned, versionToWrite } from '@/server/services/optimistic-lock';

/** Campaigns in these states still run (or may run) for the advertiser, so it cannot go away under them. */
export const LIVE_CAMPAIGN_STATUSES = ['draft', 'active', 'paused'] as const;

/**
 * Soft-delete an advertiser: it disappears from lists and reads (404), the row
 * stays for the campaigns that name it. Refused (409) while any of its
 * campaigns is draft, active or paused. The advertiser row is locked first;
 * campaign creation takes a share lock on it, so a campaign can never be
 * created for an advertiser that is being deleted.
 */
export async function deleteAdvertiser({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  advertiserId: string;
  expectedVersion: number | undefined;
}): Promise<AdvertiserRow> {
  const current = await findAdvertiser({ db: tx, networkId: input.networkId, advertiserId: input.advertiserId, lock: 'update' });
  if (!current) throw notFound('Advertiser');
  const version = versionToWrite('Advertiser', current.version, input.expectedVersion);
  const [live] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(campaigns)
    .where(
      and(eq(campaigns.networkId, current.networkId), eq(campaigns.advertiserId, current.id), inArray(campaigns.status, [...LIVE_CAMPAIGN_STATUSES])),
    );
  if (live && live.count > 0) {
    throw conflict(
      `This advertiser has ${live.count} campaign(s) in draft, active or paused state. Complete or archive them before deleting the advertiser.`,
    );
  }
  const [row] = await updateVersioned({
    tx,
    table: advertisers,
    networkId: current.networkId,
    set: { deletedAt: sql`now()` },
    where: eq(advertisers.id, current.id),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Advertiser');
  return row;
}
