import { lastLatencies, redeliver } from '@/server/services/webhooks/deliveries';
import { requireActiveWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { deliverySchema, presentDelivery } from './delivery.types';
import { redeliverDeliveryInput } from './redeliver-delivery.types';

export const redeliverDeliveryRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No webhook, or no delivery of it, with these ids.',
      conflict: 'An attempt of the delivery is under way right now, or the subscription is disabled.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
      tags: ['webhooks'],
      summary: 'Send a delivery again, or now',
      description:
        'For a failed or succeeded delivery: sets it back to `pending` and schedules an attempt now (same id, same bytes, freshly signed). ' +
        'For a pending delivery waiting for its next retry: moves that attempt to now ("retry now"). ' +
        'Attempt history is kept and attempt numbers continue; two attempts of one delivery never run at once. Answers 202 with the delivery; ' +
        'an attempt under way at this moment (retry once it has finished), and a disabled subscription (it sends nothing): both 409.',
      protect: true,
      successDescription: 'Accepted: the delivery is scheduled.',
    },
  })
  .input(redeliverDeliveryInput)
  .output(deliverySchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction(async (tx) => {
      await requireActiveWebhook({ db: tx, networkId: input.networkId, webhookId: input.webhookId });
      return redeliver({ tx, networkId: input.networkId, webhookId: input.webhookId, deliveryId: input.deliveryId });
    });
    ctx.http.status = 202;
    return presentDelivery(row, (await lastLatencies({ db: ctx.db, networkId: input.networkId, deliveryIds: [row.id] })).get(row.id) ?? null);
  });
