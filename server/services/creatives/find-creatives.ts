import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { creativeAudio, creatives } from '../../../db/schema';
import type { CreativeRow } from './complete-creative';

export async function findCreative(db: Queryable, networkId: string, id: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(creatives).where(and(eq(creatives.networkId, networkId), eq(creatives.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function listCreatives(
  db: Queryable,
  networkId: string,
  filter: { status?: CreativeRow['status'] | undefined; offerId?: string | undefined },
  afterId: string | undefined,
  take: number,
) {
  const conditions: SQL[] = [eq(creatives.networkId, networkId)];
  if (filter.status) conditions.push(eq(creatives.status, filter.status));
  if (filter.offerId) conditions.push(eq(creatives.offerId, filter.offerId));
  if (afterId) conditions.push(gt(creatives.id, afterId));
  return db
    .select()
    .from(creatives)
    .where(and(...conditions))
    .orderBy(asc(creatives.id))
    .limit(take);
}

export async function loadAudio(db: Queryable, creativeId: string): Promise<Buffer | undefined> {
  const [row] = await db.select().from(creativeAudio).where(eq(creativeAudio.creativeId, creativeId));
  return row?.bytes;
}
