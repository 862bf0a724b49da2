import { paginate } from '@/server/http/pagination';
import { listWebhooksWithHealth } from '@/server/services/webhooks/health';
import { networkProcedure } from '@/server/trpc';
import { listWebhooksInput, listWebhooksOutput, presentHealth } from './list-webhooks.types';
import { presentWebhook } from './webhook.types';

export const listWebhooksRoute = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhooks',
      tags: ['webhooks'],
      summary: 'List the network’s webhook subscriptions',
      description:
        'Ordered by id; deleted subscriptions are not listed. Secrets are never shown. Each item carries its `health`: the latest attempted delivery’s outcome and time, ' +
        'and the share of deliveries attempted in the last 24 hours that succeeded.',
      protect: true,
    },
  })
  .input(listWebhooksInput)
  .output(listWebhooksOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `webhooks:${input.networkId}`,
      (after, take) => listWebhooksWithHealth({ db: ctx.db, networkId: input.networkId, afterId: after, take }),
      (row) => ({ ...presentWebhook(row), health: presentHealth(row.health) }),
    ),
  );
