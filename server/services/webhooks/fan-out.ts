import { randomUUID } from 'node:crypto';
import { and, arrayContains, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import type { events } from '../../../db/schema';
import { webhookDeliveries, webhooks } from '../../../db/schema';
import { enqueueJob } from '../../../jobs/enqueue';

type EventRow = typeof events.$inferSelect;

/**
 * On the event's own transaction: one delivery per active subscription of the
 * network that wants this type, with its job. The envelope bytes are fixed
 * here, so every retry sends exactly the same body and delivery id.
 */
export async function fanOutEvent(tx: Tx, event: EventRow): Promise<number> {
  const targets = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.networkId, event.networkId),
        eq(webhooks.status, 'active'),
        isNull(webhooks.deletedAt),
        arrayContains(webhooks.events, [event.type]),
      ),
    );
  for (const target of targets) {
    const id = randomUUID();
    const body = JSON.stringify({ id, type: event.type, occurred_at: event.occurredAt.toISOString(), data: event.data });
    await tx.insert(webhookDeliveries).values({
      id,
      webhookId: target.id,
      networkId: event.networkId,
      eventId: event.id,
      eventType: event.type,
      body,
    });
    await enqueueJob(tx, 'deliver-webhook', { deliveryId: id }, { jobKey: `delivery:${id}`, queueName: undefined });
  }
  return targets.length;
}
