import { sendTestEvent } from '@/server/services/webhooks/test-event';
import { networkProcedure } from '@/server/trpc';
import { deliverySchema, presentDelivery } from './delivery.types';
import { sendTestEventInput } from './send-test-event.types';

export const sendTestEventRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook with this id in the network.' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks/{webhookId}/test',
      tags: ['webhooks'],
      summary: 'Send a test event',
      description:
        'Sends the example envelope of `event_type` (GET /event-types) to this subscription through the normal delivery path: signed, logged in its deliveries, retried. ' +
        'Works while the subscription is disabled, to check an endpoint before enabling it. The receiver tells it from a real event by `"test": true` in the envelope ' +
        'and the `X-Service-Test: true` header; it is not recorded in the event log. Answers 202 with the delivery (`id` = the delivery id).',
      protect: true,
      successDescription: 'Accepted: the test delivery is scheduled.',
    },
  })
  .input(sendTestEventInput)
  .output(deliverySchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      sendTestEvent({ tx, networkId: input.networkId, webhookId: input.webhookId, eventType: input.event_type }),
    );
    ctx.http.status = 202;
    return presentDelivery(row);
  });
