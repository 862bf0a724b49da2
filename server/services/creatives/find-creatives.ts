import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { creativeAudio, creatives, type AudioFormat } from '@/db/schema';
import { hashToken } from '@/server/auth/tokens';
import type { CreativeRow } from './complete-creative';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

export async function findCreative(find: { db: Queryable; networkId: string; id: string; lock?: 'update' }) {
  return networkRow(creatives, find);
}

export interface CreativeFilter {
  status?: CreativeRow['status'] | undefined;
  offerId?: string | undefined;
  campaignId?: string | undefined;
  podcastId?: string | undefined;
}

export async function listCreatives({ filter, ...page }: NetworkPage & { filter: CreativeFilter }) {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(creatives.status, filter.status));
  if (filter.offerId) conditions.push(eq(creatives.offerId, filter.offerId));
  if (filter.campaignId) conditions.push(eq(creatives.campaignId, filter.campaignId));
  if (filter.podcastId) conditions.push(eq(creatives.podcastId, filter.podcastId));
  return networkPage(creatives, page, conditions);
}

/** Every revision of an offer's creative, revision 1 first (at most MAX_CREATIVE_REVISIONS). */
export async function listRevisions({ db, networkId, offerId }: { db: Queryable; networkId: string; offerId: string }): Promise<CreativeRow[]> {
  return db
    .select()
    .from(creatives)
    .where(and(eq(creatives.networkId, networkId), eq(creatives.offerId, offerId)))
    .orderBy(asc(creatives.revision));
}

/**
 * The revision a review link's token opens, whatever its state, or undefined. The token is all the
 * host's request carries: the network comes from the row (the one lookup of this table that names none).
 */
export async function findCreativeByReviewToken({ db, token }: { db: Queryable; token: string }): Promise<CreativeRow | undefined> {
  const [row] = await db
    .select()
    .from(creatives)
    .where(eq(creatives.reviewTokenHash, hashToken(token)));
  return row;
}

export async function loadAudio({
  db,
  networkId,
  creativeId,
  format,
}: {
  db: Queryable;
  networkId: string;
  creativeId: string;
  format: AudioFormat;
}): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: creativeAudio.bytes })
    .from(creativeAudio)
    .where(and(eq(creativeAudio.networkId, networkId), eq(creativeAudio.creativeId, creativeId), eq(creativeAudio.format, format)));
  return row?.bytes;
}
