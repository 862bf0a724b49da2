import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { enqueueJob } from '@/server/jobs/enqueue';
import { badRequest, conflict, notFound } from '@/server/errors';
import { networkRow, type NetworkPage } from '@/server/services/page';
import { deliveryJobKey } from './delivery-job';
import { retentionCutoff, retentionDays } from './retention';

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
export async function listDeliveries({
  db,
  filters,
  afterId,
  take,
  networkId,
  webhookId,
}: NetworkPage & { filters: DeliveryFilters; webhookId: string }): Promise<DeliveryRow[]> {
  const d = webhookDeliveries;
  const conditions: SQL[] = [eq(d.networkId, networkId), eq(d.webhookId, webhookId)];
  if (filters.status) conditions.push(eq(d.status, filters.status));
  if (filters.eventType) conditions.push(eq(d.eventType, filters.eventType));
  if (filters.since) conditions.push(gte(d.createdAt, filters.since));
  if (filters.until) conditions.push(lte(d.createdAt, filters.until));
  if (afterId) {
    if (!isDeliveryId(afterId)) return [];
    const [after] = await db
      .select({ createdAt: d.createdAt })
      .from(d)
      .where(and(eq(d.id, afterId), eq(d.webhookId, webhookId)));
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
export async function findDelivery({
  db,
  deliveryId,
  lock,
  networkId,
  webhookId,
}: {
  db: Queryable;
  deliveryId: string;
  lock?: 'update';
  networkId: string;
  webhookId: string;
}): Promise<DeliveryRow | undefined> {
  if (!isDeliveryId(deliveryId)) return undefined;
  return networkRow(webhookDeliveries, { db, networkId, id: deliveryId, lock }, [eq(webhookDeliveries.webhookId, webhookId)]);
}

/** The latency of each delivery's latest attempt (absent: no attempt yet; null: no response). */
export async function lastLatencies({
  db,
  networkId,
  deliveryIds,
}: {
  db: Queryable;
  networkId: string;
  deliveryIds: string[];
}): Promise<Map<string, number | null>> {
  if (deliveryIds.length === 0) return new Map();
  const a = webhookAttempts;
  const rows = await db
    .selectDistinctOn([a.deliveryId], { deliveryId: a.deliveryId, latencyMs: a.latencyMs })
    .from(a)
    .where(and(eq(a.networkId, networkId), inArray(a.deliveryId, deliveryIds)))
    .orderBy(a.deliveryId, desc(a.attemptNumber));
  return new Map(rows.map((r) => [r.deliveryId, r.latencyMs]));
}

/** Every attempt of a delivery, in order. */
export async function listAttempts({ db, networkId, deliveryId }: { db: Queryable; networkId: string; deliveryId: string }): Promise<AttemptRow[]> {
  const a = webhookAttempts;
  return db
    .select()
    .from(a)
    .where(and(eq(a.networkId, networkId), eq(a.deliveryId, deliveryId)))
    .orderBy(asc(a.attemptNumber));
}

async function reschedule(tx: Tx, networkId: string, ids: string[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  const d = webhookDeliveries;
  const rows = await tx
    .update(d)
    .set({ status: 'pending', nextAttemptAt: null })
    .where(and(eq(d.networkId, networkId), inArray(d.id, ids)))
    .returning();
  for (const row of rows) await enqueueJob(tx, 'deliver-webhook', { deliveryId: row.id, networkId }, { jobKey: deliveryJobKey(row.id) });
  return rows;
}

/**
 * Send a delivery now. A finished one (failed or succeeded) goes back to pending, with its attempt
 * history kept (attempt numbers continue), and a job on this transaction. A pending one waiting for
 * its next attempt has that attempt moved to now ("retry now").
 *
 * Never two attempts of one delivery at once: the delivery row is locked, then its job row
 * (graphile-worker fetches jobs with SKIP LOCKED, so it cannot take the job meanwhile). A job that
 * a worker already holds is an attempt under way (or about to start): 409, nothing changes, and
 * that attempt records its outcome as usual.
 */
export async function redeliver({
  tx,
  deliveryId,
  networkId,
  webhookId,
}: {
  tx: Tx;
  deliveryId: string;
  networkId: string;
  webhookId: string;
}): Promise<DeliveryRow> {
  const current = await findDelivery({ db: tx, networkId, webhookId, deliveryId, lock: 'update' });
  if (!current) throw notFound('Delivery');
  if (current.status === 'pending' && (await attemptUnderWay(tx, current.id))) {
    throw conflict(
      'An attempt of this delivery is under way right now; its outcome appears in the delivery log in a moment. Retry once it has finished.',
    );
  }
  const [row] = await reschedule(tx, networkId, [current.id]);
  return row!;
}

/**
 * Moves the delivery's job (if it has one) to now, unless a worker holds it: true when one does.
 * graphile-worker's `reschedule_jobs` skips a locked job and row-locks the one it moves, so no
 * worker can take it before this transaction ends (workers fetch with SKIP LOCKED).
 */
async function attemptUnderWay(tx: Tx, deliveryId: string): Promise<boolean> {
  const rows = await tx.execute<{ locked: boolean }>(sql`
    with job as (select id from graphile_worker.jobs where key = ${deliveryJobKey(deliveryId)}),
         moved as (select id from graphile_worker.reschedule_jobs(array(select id from job), run_at => now()))
    select (select count(*) from job) > (select count(*) from moved) as locked`);
  return rows[0]?.locked === true;
}

/**
 * Re-send every failed delivery of the subscription created at or after `since` (oldest first, at
 * most RECOVER_LIMIT). A `since` before the retention window is a 400 that says so: those are gone.
 */
export async function recoverFailed({
  tx,
  since,
  networkId,
  webhookId,
}: {
  tx: Tx;
  since: Date;
  networkId: string;
  webhookId: string;
}): Promise<number> {
  const cutoff = retentionCutoff();
  if (since < cutoff) {
    const message = `since is older than the retention window: deliveries are kept for ${retentionDays()} days (WEBHOOK_RETENTION_DAYS), so since must be at or after ${cutoff.toISOString()}.`;
    throw badRequest(message, [{ path: 'since', message }]);
  }
  const d = webhookDeliveries;
  const failed = await tx
    .select({ id: d.id })
    .from(d)
    .where(and(eq(d.networkId, networkId), eq(d.webhookId, webhookId), eq(d.status, 'failed'), gte(d.createdAt, since)))
    .orderBy(asc(d.createdAt), asc(d.id))
    .limit(RECOVER_LIMIT)
    .for('update', { skipLocked: true });
  const rows = await reschedule(
    tx,
    networkId,
    failed.map((r) => r.id),
  );
  return rows.length;
}
