import { paginate } from '@/server/http/pagination';
import { listWebhooks } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { listWebhooksInput, listWebhooksOutput } from './list-webhooks.types';
import { presentWebhook } from './webhook.types';

export const listWebhooksRoute = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhooks',
      tags: ['webhooks'],
      summary: 'List the network’s webhook subscriptions',
      description: 'Ordered by id; deleted subscriptions are not listed. Secrets are never shown.',
      protect: true,
    },
  })
  .input(listWebhooksInput)
  .output(listWebhooksOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `webhooks:${input.networkId}`,
      (after, take) => listWebhooks({ db: ctx.db, networkId: input.networkId, afterId: after, take }),
      presentWebhook,
    ),
  );
