import { expectedVersion } from '../../http/locking';
import { deleteWebhook as softDeleteWebhook } from '../../services/webhooks/subscriptions';
import { networkProcedure } from '../../trpc';
import { deleteWebhookInput } from './delete-webhook.types';
import { presentWebhook, webhookSchema } from './webhook.types';

export const deleteWebhook = networkProcedure('administrator')
  .meta({
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
      softDeleteWebhook(tx, { networkId: input.networkId, webhookId: input.webhookId, expectedVersion: expected, actorKeyId: ctx.principal.keyId }),
    );
    return presentWebhook(row);
  });
