import { z } from 'zod';
import { database } from '../../db/client';
import { attemptDelivery } from '../../server/services/webhooks/deliver';
import { assertDeliverableUrl, webhookUrlPolicy } from '../../server/services/webhooks/ssrf';

export const deliverWebhookPayload = z.object({ deliveryId: z.string().uuid() });

/**
 * One attempt of one delivery. The target is checked again now (DNS may have
 * changed since the subscription was made); the next attempt, if any, is
 * scheduled by attemptDelivery as a new job.
 */
export async function deliverWebhook(payload: z.output<typeof deliverWebhookPayload>): Promise<void> {
  await attemptDelivery(database(), payload.deliveryId, (url) => assertDeliverableUrl(url, webhookUrlPolicy()));
}
