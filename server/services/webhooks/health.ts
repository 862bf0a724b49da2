import { and, asc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { webhookDeliveries, webhooks } from '@/db/schema';
import type { NetworkPage } from '@/server/services/page';
import { HEALTH_WINDOW_LIMIT } from './health-window';
import type { WebhookRow } from './subscriptions';

export interface WebhookHealth {
  /** The most recently attempted delivery: its state after that attempt. */
  lastDelivery: { id: string; status: 'pending' | 'succeeded' | 'failed'; statusCode: number | null; attemptedAt: Date } | null;
  /** Deliveries attempted in the last 24 h (the latest HEALTH_WINDOW_LIMIT at most), and how many of them have succeeded. */
  attempted24h: number;
  succeeded24h: number;
}

const d = webhookDeliveries;

/**
 * A page of live subscriptions with their health, in ONE statement (no query per row): each
 * subscription's latest attempted delivery, and the count of deliveries attempted in the last
 * 24 h (the latest HEALTH_WINDOW_LIMIT at most) and of those that succeeded — both read from
 * webhook_deliveries_network_webhook_attempted_idx.
 */
export async function listWebhooksWithHealth({ db, networkId, afterId, take }: NetworkPage): Promise<Array<WebhookRow & { health: WebhookHealth }>> {
  const conditions: SQL[] = [eq(webhooks.networkId, networkId), isNull(webhooks.deletedAt)];
  if (afterId) conditions.push(gt(webhooks.id, afterId));
  const sameHook = sql`${d.networkId} = ${webhooks.networkId} and ${d.webhookId} = ${webhooks.id}`;
  const rows = await db
    .select({
      webhook: webhooks,
      last: sql<{ id: string; status: 'pending' | 'succeeded' | 'failed'; status_code: number | null; attempted_at: string } | null>`(
        select json_build_object('id', ${d.id}, 'status', ${d.status}, 'status_code', ${d.lastStatusCode}, 'attempted_at', ${d.lastAttemptAt})
          from ${d} where ${sameHook} and ${d.lastAttemptAt} is not null
         order by ${d.lastAttemptAt} desc limit 1)`,
      window: sql<{ attempted: number; succeeded: number }>`(
        select json_build_object('attempted', count(*), 'succeeded', count(*) filter (where recent.status = 'succeeded'))
          from (select ${d.status} as status from ${d} where ${sameHook} and ${d.lastAttemptAt} >= now() - interval '24 hours'
                 order by ${d.lastAttemptAt} desc limit ${sql.raw(String(HEALTH_WINDOW_LIMIT))}) recent)`,
    })
    .from(webhooks)
    .where(and(...conditions))
    .orderBy(asc(webhooks.id))
    .limit(take);
  return rows.map(({ webhook, last, window }) => ({
    ...webhook,
    health: {
      lastDelivery: last && { id: last.id, status: last.status, statusCode: last.status_code, attemptedAt: new Date(last.attempted_at) },
      attempted24h: Number(window.attempted),
      succeeded24h: Number(window.succeeded),
    },
  }));
}
