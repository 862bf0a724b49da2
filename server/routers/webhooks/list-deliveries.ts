import { paginate } from '@/server/http/pagination';
import { lastLatencies, listDeliveries } from '@/server/services/webhooks/deliveries';
import { requireWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { timeWindow } from '@/server/routers/shared.types';
import { presentDelivery } from './delivery.types';
import { listDeliveriesInput, listDeliveriesOutput } from './list-deliveries.types';

export const listDeliveriesRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhooks/{webhookId}/deliveries',
      tags: ['webhooks'],
      summary: 'List a subscription’s deliveries',
      description:
        'The delivery log, oldest first by creation time (`order=desc`: newest first). Filter by `status`, `event_type` and creation time (`since`, `until`, inclusive).',
      protect: true,
    },
  })
  .input(listDeliveriesInput)
  .output(listDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    await requireWebhook({ db: ctx.db, networkId: input.networkId, webhookId: input.webhookId });
    const window = timeWindow(input);
    const filters = { status: input.status, eventType: input.event_type, since: window.since, until: window.until, order: input.order };
    const scope = [
      'webhook-deliveries',
      input.networkId,
      input.webhookId,
      input.status ?? '',
      input.event_type ?? '',
      window.scope,
      input.order,
    ].join(':');
    const page = await paginate(
      input,
      scope,
      (after, take) => listDeliveries({ db: ctx.db, networkId: input.networkId, webhookId: input.webhookId, filters, afterId: after, take }),
      (row) => row,
    );
    const latencies = await lastLatencies({ db: ctx.db, networkId: input.networkId, deliveryIds: page.items.map((row) => row.id) });
    return { items: page.items.map((row) => presentDelivery(row, latencies.get(row.id) ?? null)), next_cursor: page.next_cursor };
  });
