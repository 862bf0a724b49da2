import { notFound } from '@/server/errors';
import { deliveryStats } from '@/server/services/webhooks/delivery-stats';
import { findWebhook } from '@/server/services/webhooks/subscriptions';
import { networkProcedure } from '@/server/trpc';
import { iso } from '@/server/routers/shared.types';
import { deliveryStatsInput, deliveryStatsOutput, STATS_DEFAULT_RANGE_MS } from './delivery-stats.types';

export const deliveryStatsRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No webhook with the `webhook_id` in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhook-delivery-stats',
      tags: ['webhooks'],
      summary: 'Webhook delivery health over time',
      description:
        'Deliveries of the network’s subscriptions (or of one, `webhook_id`) in UTC hour or day buckets from `since` to now: ' +
        'succeeded, failed and pending counts (by creation time) and the p50/p95 latency of the attempts started in each bucket. ' +
        'Every bucket of the range is listed, empty ones with zeros.',
      protect: true,
    },
  })
  .input(deliveryStatsInput)
  .output(deliveryStatsOutput)
  .query(async ({ ctx, input }) => {
    if (input.webhook_id && !(await findWebhook({ db: ctx.db, networkId: input.networkId, webhookId: input.webhook_id }))) throw notFound('Webhook');
    const now = new Date();
    const since = input.since ? new Date(input.since) : new Date(now.getTime() - STATS_DEFAULT_RANGE_MS[input.bucket]);
    const buckets = await deliveryStats({ db: ctx.db, networkId: input.networkId, webhookId: input.webhook_id, since, bucket: input.bucket, now });
    const totals = { succeeded: 0, failed: 0, pending: 0 };
    for (const b of buckets) {
      totals.succeeded += b.succeeded;
      totals.failed += b.failed;
      totals.pending += b.pending;
    }
    return {
      bucket: input.bucket,
      since: iso(since),
      until: iso(now),
      totals,
      buckets: buckets.map((b) => ({
        start: iso(b.start),
        succeeded: b.succeeded,
        failed: b.failed,
        pending: b.pending,
        latency_p50_ms: b.latencyP50Ms,
        latency_p95_ms: b.latencyP95Ms,
      })),
    };
  });
