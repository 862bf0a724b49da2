import { rotateWebhookSecret } from '@/server/services/webhooks/rotate-secret';
import { networkProcedure } from '@/server/trpc';
import { createWebhookOutput } from './create-webhook.types';
import { rotateSecretInput } from './rotate-secret.types';
import { presentWebhook } from './webhook.types';

export const rotateSecretRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook with this id in the network.' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks/{webhookId}/rotate-secret',
      tags: ['webhooks'],
      summary: 'Rotate the signing secret',
      description:
        'Returns the new `secret` once. For 24 hours every delivery carries both signatures in X-Service-Signature (new first, comma separated), so receivers can switch without losing deliveries.',
      protect: true,
    },
  })
  .input(rotateSecretInput)
  .output(createWebhookOutput)
  .mutation(async ({ ctx, input }) => {
    const { row, secret } = await ctx.db.transaction((tx) =>
      rotateWebhookSecret({ tx, networkId: input.networkId, webhookId: input.webhookId, actorKeyId: ctx.principal.keyId }),
    );
    return { ...presentWebhook(row), secret };
  });
