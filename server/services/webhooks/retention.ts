import { asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { networks, webhookAttempts, webhookDeliveries, webhooks } from '@/db/schema';
import { column } from '@/db/statement';
import { config } from '@/server/config';

/** Days a delivery (its body and attempts) is kept after it was created (WEBHOOK_RETENTION_DAYS, default 30). */
export function retentionDays(): number {
  return config().WEBHOOK_RETENTION_DAYS;
}

/** The oldest creation time still inside the retention window. */
export function retentionCutoff(now = Date.now()): Date {
  return new Date(now - retentionDays() * 86_400_000);
}

/** Deliveries deleted per statement: each statement holds its row locks for milliseconds. */
export const PRUNE_BATCH = 500;

/**
 * Cron (hourly): delete the deliveries created before the retention window, with their attempts,
 * in batches of `batchSize` — one short statement each, on its own (autocommit) transaction, so no
 * lock is held for long and a kill at any moment leaves only whole batches done. Network by network
 * and subscription by subscription, so that every statement names its network and walks the
 * (webhook_id, created_at) index. Pending deliveries (paused with a disabled subscription) are
 * kept until they finish. Returns how many deliveries were deleted.
 */
export async function pruneWebhookDeliveries({
  db,
  cutoff = retentionCutoff(),
  batchSize = PRUNE_BATCH,
}: {
  db: Database;
  cutoff?: Date;
  batchSize?: number;
}): Promise<number> {
  const d = webhookDeliveries;
  const a = webhookAttempts;
  let deleted = 0;
  let afterNetwork = '';
  for (;;) {
    const page = await db.select({ id: networks.id }).from(networks).where(gt(networks.id, afterNetwork)).orderBy(asc(networks.id)).limit(100);
    for (const { id: networkId } of page) {
      const hooks = await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.networkId, networkId));
      for (const { id: webhookId } of hooks) {
        for (;;) {
          const rows = await db.execute<{ id: string }>(sql`
            with doomed as (
              select ${d.id} as id from ${d}
               where ${d.networkId} = ${networkId} and ${d.webhookId} = ${webhookId}
                 and ${d.createdAt} < ${cutoff.toISOString()}::timestamptz and ${d.status} <> 'pending'
               order by ${d.createdAt}, ${d.id}
               limit ${batchSize}
               for update skip locked
            ), attempts as (
              delete from ${a} where ${a.networkId} = ${networkId} and ${a.deliveryId} in (select id from doomed)
            )
            delete from ${d} where ${d.networkId} = ${networkId} and ${column(d.id)} in (select id from doomed)
            returning ${d.id}`);
          deleted += rows.length;
          if (rows.length < batchSize) break;
        }
      }
    }
    if (page.length < 100) return deleted;
    afterNetwork = page.at(-1)!.id;
  }
}
