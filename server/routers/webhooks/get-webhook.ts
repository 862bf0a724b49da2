import { found } from '@/server/errors';
import { findWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { getWebhookInput } from './get-webhook.types';
import { presentWebhook, webhookSchema } from './webhook.types';

export const getWebhookRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhooks/{webhookId}',
      tags: ['webhooks'],
      summary: 'Get a webhook subscription',
      description: 'The secret is never shown again after creation.',
      protect: true,
    },
  })
  .input(getWebhookInput)
  .output(webhookSchema)
  .query(async ({ ctx, input }) =>
    presentWebhook(found(await findWebhook({ db: ctx.db, networkId: input.networkId, webhookId: input.webhookId }), 'Webhook')),
  );
