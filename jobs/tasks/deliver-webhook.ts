import { eq } from 'drizzle-orm';
import { database } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { attemptDelivery } from '@/server/services/webhooks/deliver';
import { assertDeliverableUrl, webhookUrlPolicy } from '@/server/services/webhooks/ssrf';
import type { TaskPayload } from '@/server/jobs/payloads';

/**
 * One attempt of one delivery. The target is checked again now (DNS may have
 * changed since the subscription was made); the next attempt, if any, is
 * scheduled by attemptDelivery as a new job.
 */
export async function deliverWebhook(payload: TaskPayload<'deliver-webhook'>): Promise<void> {
  const db = database();
  const networkId = payload.networkId ?? (await networkOfDelivery(payload.deliveryId));
  if (networkId === undefined) return; // no such delivery
  await attemptDelivery({ db, networkId, deliveryId: payload.deliveryId, checkUrl: (url) => assertDeliverableUrl(url, webhookUrlPolicy()) });
}

/** For a job queued before payloads named the network. */
async function networkOfDelivery(deliveryId: string): Promise<string | undefined> {
  const [row] = await database()
    .select({ networkId: webhookDeliveries.networkId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, deliveryId));
  return row?.networkId;
}
