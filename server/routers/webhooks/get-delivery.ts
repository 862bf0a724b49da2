import { notFound } from '@/server/errors';
import { findDelivery, listAttempts } from '@/server/services/webhooks/deliveries';
import { requireWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { deliveryDetailSchema, presentDeliveryDetail } from './delivery.types';
import { getDeliveryInput } from './get-delivery.types';

export const getDeliveryRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook, or no delivery of it, with these ids.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhooks/{webhookId}/deliveries/{deliveryId}',
      tags: ['webhooks'],
      summary: 'Get a delivery with its request and attempts',
      description:
        'The request as sent (headers and the exact body; the signature is not shown) and every attempt: time, latency, status code, the first 1 KiB of the response, error.',
      protect: true,
    },
  })
  .input(getDeliveryInput)
  .output(deliveryDetailSchema)
  .query(async ({ ctx, input }) => {
    await requireWebhook({ db: ctx.db, networkId: input.networkId, webhookId: input.webhookId });
    const row = await findDelivery({ db: ctx.db, networkId: input.networkId, webhookId: input.webhookId, deliveryId: input.deliveryId });
    if (!row) throw notFound('Delivery');
    return presentDeliveryDetail(row, await listAttempts({ db: ctx.db, networkId: row.networkId, deliveryId: row.id }));
  });
