import { expectedVersion } from '@/server/http/locking';
import { deleteWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { deleteWebhookInput } from './delete-webhook.types';
import { presentWebhook, webhookSchema } from './webhook.types';

export const deleteWebhookRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No webhook with this id in the network.',
      conflict: 'The version you sent (If-Match or body) is stale, or another write came first.',
    },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/webhooks/{webhookId}',
      tags: ['webhooks'],
      summary: 'Delete a webhook subscription',
      description:
        'Soft delete: answers 200 with the subscription; from then on it receives nothing, is not listed and reads answer 404. Optionally locked with If-Match.',
      protect: true,
    },
  })
  .input(deleteWebhookInput)
  .output(webhookSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), undefined);
    const row = await ctx.db.transaction((tx) =>
      deleteWebhook({ tx, networkId: input.networkId, webhookId: input.webhookId, expectedVersion: expected, actorKeyId: ctx.principal.keyId }),
    );
    return presentWebhook(row);
  });
