import { and, eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { creativeAudio, creatives, type AudioFormat } from '@/db/schema';
import type { CreativeRow } from './complete-creative';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

export async function findCreative(find: { db: Queryable; networkId: string; id: string; lock?: 'update' }) {
  return networkRow(creatives, find);
}

export async function listCreatives({
  filter,
  ...page
}: NetworkPage & { filter: { status?: CreativeRow['status'] | undefined; offerId?: string | undefined; campaignId?: string | undefined } }) {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(creatives.status, filter.status));
  if (filter.offerId) conditions.push(eq(creatives.offerId, filter.offerId));
  if (filter.campaignId) conditions.push(eq(creatives.campaignId, filter.campaignId));
  return networkPage(creatives, page, conditions);
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
