import { expectedVersion, setEtag } from '../../http/locking';
import { checkWebhookUrl, updateWebhook as writeWebhook, type WebhookChanges } from '../../services/webhooks/subscriptions';
import { networkProcedure } from '../../trpc';
import { updateWebhookInput } from './update-webhook.types';
import { presentWebhook, webhookSchema } from './webhook.types';

export const updateWebhook = networkProcedure('administrator')
  .meta({
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
    const changes: WebhookChanges = {};
    if (input.url !== undefined) {
      await checkWebhookUrl(input.url);
      changes.url = input.url;
    }
    if (input.events !== undefined) changes.events = input.events;
    if (input.description !== undefined) changes.description = input.description;
    if (input.status !== undefined) changes.status = input.status;
    const row = await ctx.db.transaction((tx) =>
      writeWebhook(tx, { networkId: input.networkId, webhookId: input.webhookId, changes, expectedVersion: expected, actorKeyId: ctx.principal.keyId }),
    );
    setEtag(ctx.http, row.version);
    return presentWebhook(row);
  });
