import { eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { offers } from '@/db/schema';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

export type OfferRow = typeof offers.$inferSelect;
export type OfferStatus = OfferRow['status'];

export { offerStatus } from './offer-status';

export async function findOffer(find: { db: Queryable; networkId: string; id: string; lock?: 'update' }) {
  return networkRow(offers, find);
}

export interface OfferFilter {
  status?: OfferStatus | undefined;
  campaignId?: string | undefined;
  podcastId?: string | undefined;
  flightId?: string | undefined;
}

export async function listOffers({ filter, ...page }: NetworkPage & { filter: OfferFilter }) {
  const conditions: SQL[] = [];
  if (filter.status === 'expired') {
    conditions.push(sql`(${offers.status} = 'expired' or (${offers.status} = 'open' and ${offers.expiresAt} <= now()))`);
  } else if (filter.status === 'open') {
    conditions.push(sql`${offers.status} = 'open' and (${offers.expiresAt} is null or ${offers.expiresAt} > now())`);
  } else if (filter.status) {
    conditions.push(eq(offers.status, filter.status));
  }
  if (filter.campaignId) conditions.push(eq(offers.campaignId, filter.campaignId));
  if (filter.podcastId) conditions.push(eq(offers.podcastId, filter.podcastId));
  if (filter.flightId) conditions.push(eq(offers.flightId, filter.flightId));
  return networkPage(offers, page, conditions);
}
