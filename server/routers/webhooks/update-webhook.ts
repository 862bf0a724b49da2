import { expectedVersion } from '@/server/http/locking';
import { sentFields } from '@/server/http/patch';
import { checkWebhookUrl, updateWebhook, type WebhookChanges } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { updateWebhookInput } from './update-webhook.types';
import { presentWebhook, webhookSchema } from './webhook.types';

export const updateWebhookRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No webhook with this id in the network.',
      conflict: 'The version you sent (If-Match or body) is stale, or another write came first.',
    },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}/webhooks/{webhookId}',
      tags: ['webhooks'],
      summary: 'Update a webhook subscription',
      description:
        '`status: disabled` pauses deliveries (events meanwhile are not queued); `status: active` resumes them and clears `disabled_reason`. ' +
        'A new `url` is checked like on creation. Optimistically locked: send If-Match with the ETag you read, or `version`; a stale version answers 409.',
      protect: true,
    },
  })
  .input(updateWebhookInput)
  .output(webhookSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), input.version);
    if (input.url !== undefined) await checkWebhookUrl(input.url);
    const changes = sentFields<WebhookChanges>({ url: input.url, events: input.events, description: input.description, status: input.status });
    const row = await ctx.db.transaction((tx) =>
      updateWebhook({
        tx,
        networkId: input.networkId,
        webhookId: input.webhookId,
        changes,
        expectedVersion: expected,
        actorKeyId: ctx.principal.keyId,
      }),
    );
    return presentWebhook(row);
  });
