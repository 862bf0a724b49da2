import { randomUUID } from 'node:crypto';
import type { Tx } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { enqueueJob } from '@/server/jobs/enqueue';
import { EVENT_DATA_EXAMPLES, type EventEnvelope, type EventType } from '@/domain/events';
import type { DeliveryRow } from './deliveries';
import { requireWebhook } from './subscriptions';

/**
 * Send the example envelope of `eventType` to one subscription, through the normal delivery
 * path (stored bytes, signed, logged, retried), on this transaction. A disabled subscription
 * receives it too: it is how an endpoint is checked before it is enabled. Nothing is recorded
 * in the event log; the envelope says `"test": true` and the request carries `X-Service-Test: true`.
 */
export async function sendTestEvent({
  tx,
  networkId,
  webhookId,
  eventType,
}: {
  tx: Tx;
  networkId: string;
  webhookId: string;
  eventType: EventType;
}): Promise<DeliveryRow> {
  const hook = await requireWebhook({ db: tx, networkId, webhookId });
  const id = randomUUID();
  const envelope: EventEnvelope = { id, type: eventType, occurred_at: new Date().toISOString(), data: EVENT_DATA_EXAMPLES[eventType], test: true };
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ id, webhookId: hook.id, networkId, eventId: null, eventType, test: true, body: JSON.stringify(envelope) })
    .returning();
  await enqueueJob(tx, 'deliver-webhook', { deliveryId: id, networkId }, { jobKey: `delivery:${id}` });
  return row!;
}
