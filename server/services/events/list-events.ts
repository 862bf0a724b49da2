import { and, asc, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { NetworkPage } from '@/server/services/page';

export async function listEvents({
  db,
  networkId,
  filter,
  afterId,
  take,
  order = 'asc',
}: NetworkPage & { filter: { type?: string | undefined }; order?: 'asc' | 'desc' }) {
  const conditions: SQL[] = [eq(events.networkId, networkId)];
  if (filter.type) conditions.push(eq(events.type, filter.type));
  if (afterId) conditions.push(order === 'desc' ? lt(events.id, afterId) : gt(events.id, afterId));
  return db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(order === 'desc' ? desc(events.id) : asc(events.id))
    .limit(take)
    .prepare(order === 'desc' ? 'list_events_desc' : 'list_events')
    .execute();
}
