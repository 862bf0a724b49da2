import { and, eq, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { creativeAudio, creatives, type AudioFormat } from '@/db/schema';
import type { CreativeRow } from './complete-creative';
import { networkPage, type NetworkPage } from '@/server/services/page';

export async function findCreative({ db, networkId, id, lock = false }: { db: Queryable; networkId: string; id: string; lock?: boolean }) {
  const query = db
    .select()
    .from(creatives)
    .where(and(eq(creatives.networkId, networkId), eq(creatives.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
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
