import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { campaigns } from '@/db/schema';
import type { CampaignStatus } from '@/domain/campaign-transitions';
import type { NetworkPage } from '@/server/services/page';

export type CampaignRow = typeof campaigns.$inferSelect;

export interface CampaignFilter {
  status?: CampaignStatus | undefined;
  advertiserId?: string | undefined;
}

/** One campaign of the network, or undefined (also for another network's id: ids are not leaked). */
export async function findCampaign({
  db,
  networkId,
  campaignId,
}: {
  db: Queryable;
  networkId: string;
  campaignId: string;
}): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, campaignId)));
  return row;
}

/** Campaigns of a network matching the filter, in id (= creation) order, after `afterId`. */
export async function listCampaigns({ db, networkId, filter, afterId, take }: NetworkPage & { filter: CampaignFilter }): Promise<CampaignRow[]> {
  const conditions: SQL[] = [eq(campaigns.networkId, networkId)];
  if (filter.status) conditions.push(eq(campaigns.status, filter.status));
  if (filter.advertiserId) conditions.push(eq(campaigns.advertiserId, filter.advertiserId));
  if (afterId) conditions.push(gt(campaigns.id, afterId));
  return db
    .select()
    .from(campaigns)
    .where(and(...conditions))
    .orderBy(asc(campaigns.id))
    .limit(take);
}
