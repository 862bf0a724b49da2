import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { events } from '../../../db/schema';

export async function listEvents(
  db: Queryable,
  networkId: string,
  filter: { type?: string | undefined },
  afterId: string | undefined,
  take: number,
) {
  const conditions: SQL[] = [eq(events.networkId, networkId)];
  if (filter.type) conditions.push(eq(events.type, filter.type));
  if (afterId) conditions.push(gt(events.id, afterId));
  return db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.id))
    .limit(take)
    .prepare('list_events')
    .execute();
}
