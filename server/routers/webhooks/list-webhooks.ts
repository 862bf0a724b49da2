import { paginate } from '../../http/pagination';
import { listWebhooks as findWebhooks } from '../../services/webhooks/subscriptions';
import { networkProcedure } from '../../trpc';
import { listWebhooksInput, listWebhooksOutput } from './list-webhooks.types';
import { presentWebhook } from './webhook.types';

export const listWebhooks = networkProcedure('administrator')
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
    paginate(input, `webhooks:${input.networkId}`, (after, take) => findWebhooks(ctx.db, input.networkId, after, take), presentWebhook),
  );
