import { recoverFailed } from '@/server/services/webhooks/deliveries';
import { requireActiveWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { recoverDeliveriesInput, recoverDeliveriesOutput } from './recover-deliveries.types';

export const recoverDeliveriesRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook with this id in the network.', conflict: 'The subscription is disabled.' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks/{webhookId}/recover',
      tags: ['webhooks'],
      summary: 'Re-send failed deliveries since a time',
      description:
        'Schedules again every failed delivery of this subscription created at or after `since` (at most the retention window ago: ' +
        'WEBHOOK_RETENTION_DAYS, 30 days by default; an older `since` is a 400 that says so), ' +
        'like redeliver does for one, in one transaction; at most 1,000 per call (call again to continue). Answers 202 with the count; 409 while the subscription is disabled.',
      protect: true,
      successDescription: 'Accepted: the deliveries are scheduled.',
    },
  })
  .input(recoverDeliveriesInput)
  .output(recoverDeliveriesOutput)
  .mutation(async ({ ctx, input }) => {
    const recovered = await ctx.db.transaction(async (tx) => {
      await requireActiveWebhook({ db: tx, networkId: input.networkId, webhookId: input.webhookId });
      return recoverFailed({ tx, networkId: input.networkId, webhookId: input.webhookId, since: new Date(input.since) });
    });
    ctx.http.status = 202;
    return { recovered };
  });
