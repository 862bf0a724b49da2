import { eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { campaigns } from '@/db/schema';
import type { CampaignStatus } from '@/domain/campaign-transitions';
import { networkPage, networkRow, type NetworkPage, type RowLock } from '@/server/services/page';

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
  lock,
}: {
  db: Queryable;
  networkId: string;
  campaignId: string;
  lock?: RowLock;
}): Promise<CampaignRow | undefined> {
  return networkRow(campaigns, { db, networkId, id: campaignId, lock });
}

/** Campaigns of a network matching the filter, in id (= creation) order, after `afterId`. */
export async function listCampaigns({ filter, ...page }: NetworkPage & { filter: CampaignFilter }): Promise<CampaignRow[]> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(campaigns.status, filter.status));
  if (filter.advertiserId) conditions.push(eq(campaigns.advertiserId, filter.advertiserId));
  return networkPage(campaigns, page, conditions);
}
