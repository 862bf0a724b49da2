import { checkWebhookUrl, createWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { createWebhookInput, createWebhookOutput } from './create-webhook.types';
import { presentWebhook } from './webhook.types';

export const createWebhookRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'quota-exceeded': 'The network already has as many webhook subscriptions as it may (QUOTA_WEBHOOKS_PER_NETWORK; disabled ones count).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks',
      tags: ['webhooks'],
      summary: 'Create a webhook subscription',
      description:
        'Answers 201 with the subscription and its signing `secret` (whsec_…), which is never shown again. ' +
        'The URL must be http or https (https in live mode) and must not resolve to a private, loopback, link-local or metadata address.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createWebhookInput)
  .output(createWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    await checkWebhookUrl(input.url);
    const { row, secret } = await ctx.db.transaction((tx) =>
      createWebhook({
        tx,
        networkId: input.networkId,
        url: input.url,
        events: input.events,
        description: input.description,
        actorKeyId: ctx.principal.keyId,
      }),
    );
    ctx.http.status = 201;
    return { ...presentWebhook(row), secret };
  });
