import { notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { findWebhook } from '../../services/webhooks/subscriptions';
import { networkProcedure } from '../../trpc';
import { getWebhookInput } from './get-webhook.types';
import { presentWebhook, webhookSchema } from './webhook.types';

export const getWebhook = networkProcedure('administrator')
  .meta({
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
  .query(async ({ ctx, input }) => {
    const row = await findWebhook(ctx.db, input.networkId, input.webhookId);
    if (!row) throw notFound('Webhook');
    setEtag(ctx.http, row.version);
    return presentWebhook(row);
  });
