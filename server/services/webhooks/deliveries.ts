import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Queryable, Tx } from '../../../db/client';
import { webhookAttempts, webhookDeliveries } from '../../../db/schema';
import { enqueueJob } from '../../../jobs/enqueue';
import { conflict, notFound } from '../../errors';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryStatus = DeliveryRow['status'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Delivery ids are UUIDs; anything else names no delivery (404, never a database error). */
export function isDeliveryId(value: string): boolean {
  return UUID.test(value);
}

/** Most failed deliveries one recover call re-sends. */
export const RECOVER_LIMIT = 1000;

export interface DeliveryFilters {
  status?: DeliveryStatus | undefined;
  eventType?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  /** asc (default): oldest first; desc: newest first. */
  order?: 'asc' | 'desc' | undefined;
}

/**
 * Deliveries of one subscription in creation order (or its reverse), (created_at, id) keyset,
 * after the delivery `afterId` (which must belong to the same subscription).
 */
export async function listDeliveries(
  db: Queryable,
  scope: { networkId: string; webhookId: string },
  filters: DeliveryFilters,
  afterId: string | undefined,
  take: number,
): Promise<DeliveryRow[]> {
  const d = webhookDeliveries;
  const conditions: SQL[] = [eq(d.networkId, scope.networkId), eq(d.webhookId, scope.webhookId)];
  if (filters.status) conditions.push(eq(d.status, filters.status));
  if (filters.eventType) conditions.push(eq(d.eventType, filters.eventType));
  if (filters.since) conditions.push(gte(d.createdAt, filters.since));
  if (filters.until) conditions.push(lte(d.createdAt, filters.until));
  if (afterId) {
    if (!isDeliveryId(afterId)) return [];
    const [after] = await db
      .select({ createdAt: d.createdAt })
      .from(d)
      .where(and(eq(d.id, afterId), eq(d.webhookId, scope.webhookId)));
    if (!after) return [];
    const beyond = filters.order === 'desc' ? lt : gt;
    conditions.push(or(beyond(d.createdAt, after.createdAt), and(eq(d.createdAt, after.createdAt), beyond(d.id, afterId)))!);
  }
  const direction = filters.order === 'desc' ? desc : asc;
  return db
    .select()
    .from(d)
    .where(and(...conditions))
    .orderBy(direction(d.createdAt), direction(d.id))
    .limit(take);
}

/** One delivery of the subscription, or undefined (also for a non-UUID or another subscription's id). */
export async function findDelivery(
  db: Queryable,
  scope: { networkId: string; webhookId: string },
  deliveryId: string,
  lock?: 'update',
): Promise<DeliveryRow | undefined> {
  if (!isDeliveryId(deliveryId)) return undefined;
  const d = webhookDeliveries;
  const query = db
    .select()
    .from(d)
    .where(and(eq(d.id, deliveryId), eq(d.networkId, scope.networkId), eq(d.webhookId, scope.webhookId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** The latency of each delivery's latest attempt (absent: no attempt yet; null: no response). */
export async function lastLatencies(db: Queryable, deliveryIds: string[]): Promise<Map<string, number | null>> {
  if (deliveryIds.length === 0) return new Map();
  const a = webhookAttempts;
  const rows = await db
    .selectDistinctOn([a.deliveryId], { deliveryId: a.deliveryId, latencyMs: a.latencyMs })
    .from(a)
    .where(inArray(a.deliveryId, deliveryIds))
    .orderBy(a.deliveryId, desc(a.attemptNumber));
  return new Map(rows.map((r) => [r.deliveryId, r.latencyMs]));
}

/** Every attempt of a delivery, in order. */
export async function listAttempts(db: Queryable, deliveryId: string): Promise<AttemptRow[]> {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.attemptNumber));
}

async function reschedule(tx: Tx, ids: string[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: null })
    .where(inArray(webhookDeliveries.id, ids))
    .returning();
  for (const row of rows) await enqueueJob(tx, 'deliver-webhook', { deliveryId: row.id }, { jobKey: `delivery:${row.id}` });
  return rows;
}

/**
 * Send a finished (failed or succeeded) delivery again: back to pending, with
 * its attempt history kept (attempt numbers continue), and a job on this
 * transaction. A pending delivery is already scheduled: 409.
 */
export async function redeliver(tx: Tx, scope: { networkId: string; webhookId: string }, deliveryId: string): Promise<DeliveryRow> {
  const current = await findDelivery(tx, scope, deliveryId, 'update');
  if (!current) throw notFound('Delivery');
  if (current.status === 'pending') throw conflict('This delivery is already scheduled (status pending); wait for it to finish before redelivering it.');
  const [row] = await reschedule(tx, [current.id]);
  return row!;
}

/** Re-send every failed delivery of the subscription created at or after `since` (oldest first, at most RECOVER_LIMIT). */
export async function recoverFailed(tx: Tx, scope: { networkId: string; webhookId: string }, since: Date): Promise<number> {
  const d = webhookDeliveries;
  const failed = await tx
    .select({ id: d.id })
    .from(d)
    .where(and(eq(d.networkId, scope.networkId), eq(d.webhookId, scope.webhookId), eq(d.status, 'failed'), gte(d.createdAt, since)))
    .orderBy(asc(d.createdAt), asc(d.id))
    .limit(RECOVER_LIMIT)
    .for('update', { skipLocked: true });
  const rows = await reschedule(
    tx,
    failed.map((r) => r.id),
  );
  return rows.length;
}
