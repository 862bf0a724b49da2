import { and, asc, desc, eq, gt, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { events } from '@/db/schema';
import { networkRow, type NetworkPage } from '@/server/services/page';

export interface EventFilter {
  type?: string | undefined;
  /** Events whose `data` has this value in one of its fields (offer_id, creative_id, …). */
  objectId?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

export async function listEvents({
  db,
  networkId,
  filter,
  afterId,
  take,
  order = 'asc',
}: NetworkPage & { filter: EventFilter; order?: 'asc' | 'desc' }) {
  const conditions: SQL[] = [eq(events.networkId, networkId)];
  if (filter.type) conditions.push(eq(events.type, filter.type));
  // The expression of the index events_data_values_idx (db/schema/events.ts), as it is written there.
  if (filter.objectId) conditions.push(sql`jsonb_path_query_array(${events.data}, '$.*') @> jsonb_build_array(${filter.objectId}::text)`);
  if (filter.since) conditions.push(gte(events.occurredAt, filter.since));
  if (filter.until) conditions.push(lte(events.occurredAt, filter.until));
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

export async function findEvent(find: { db: Queryable; networkId: string; id: string }) {
  return networkRow(events, find);
}
