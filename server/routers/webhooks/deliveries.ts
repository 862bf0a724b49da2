import { conflict, notFound } from '../../errors';
import { paginate } from '../../http/pagination';
import { findDelivery, lastLatencies, listAttempts, listDeliveries as findDeliveries, recoverFailed, redeliver } from '../../services/webhooks/deliveries';
import { findWebhook } from '../../services/webhooks/subscriptions';
import type { Queryable } from '../../../db/client';
import { networkProcedure } from '../../trpc';
import {
  deliveryDetailSchema,
  getDeliveryInput,
  listDeliveriesInput,
  listDeliveriesOutput,
  presentDelivery,
  presentDeliveryDetail,
  RECOVER_MAX_DAYS,
  recoverInput,
  recoverOutput,
  redeliverInput,
  deliverySchema,
} from './deliveries.types';

/** 404 unless the subscription is a live one of this network. */
async function requireWebhook(db: Queryable, networkId: string, webhookId: string, lock?: 'update') {
  const hook = await findWebhook(db, networkId, webhookId, lock);
  if (!hook) throw notFound('Webhook');
  return hook;
}

/** A disabled subscription sends nothing, so a redelivery would wait forever: refuse it. */
async function requireActiveWebhook(db: Queryable, networkId: string, webhookId: string) {
  const hook = await requireWebhook(db, networkId, webhookId);
  if (hook.status !== 'active') throw conflict('The webhook subscription is disabled; enable it (PATCH status: active) before sending deliveries again.');
  return hook;
}

export const listDeliveries = networkProcedure('administrator')
  .meta({
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
    await requireWebhook(ctx.db, input.networkId, input.webhookId);
    const filters = {
      status: input.status,
      eventType: input.event_type,
      since: input.since ? new Date(input.since) : undefined,
      until: input.until ? new Date(input.until) : undefined,
      order: input.order,
    };
    const scope = [
      'webhook-deliveries',
      input.networkId,
      input.webhookId,
      input.status ?? '',
      input.event_type ?? '',
      filters.since?.toISOString() ?? '',
      filters.until?.toISOString() ?? '',
      input.order,
    ].join(':');
    const page = await paginate(input, scope, (after, take) => findDeliveries(ctx.db, input, filters, after, take), (row) => row);
    const latencies = await lastLatencies(
      ctx.db,
      page.items.map((row) => row.id),
    );
    return { items: page.items.map((row) => presentDelivery(row, latencies.get(row.id) ?? null)), next_cursor: page.next_cursor };
  });

export const getDelivery = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/webhooks/{webhookId}/deliveries/{deliveryId}',
      tags: ['webhooks'],
      summary: 'Get a delivery with its request and attempts',
      description:
        'The request as sent (headers and the exact body; the signature is not shown) and every attempt: time, latency, status code, the first 1 KiB of the response, error.',
      protect: true,
    },
  })
  .input(getDeliveryInput)
  .output(deliveryDetailSchema)
  .query(async ({ ctx, input }) => {
    await requireWebhook(ctx.db, input.networkId, input.webhookId);
    const row = await findDelivery(ctx.db, input, input.deliveryId);
    if (!row) throw notFound('Delivery');
    return presentDeliveryDetail(row, await listAttempts(ctx.db, row.id));
  });

export const redeliverDelivery = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
      tags: ['webhooks'],
      summary: 'Send a delivery again',
      description:
        'For a failed or succeeded delivery: sets it back to `pending` and schedules an attempt now (same id, same bytes, freshly signed). ' +
        'Attempt history is kept and attempt numbers continue. Answers 202 with the delivery; a pending delivery is already scheduled, and a disabled subscription sends nothing: both 409.',
      protect: true,
      successDescription: 'Accepted: the delivery is scheduled.',
    },
  })
  .input(redeliverInput)
  .output(deliverySchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction(async (tx) => {
      await requireActiveWebhook(tx, input.networkId, input.webhookId);
      return redeliver(tx, input, input.deliveryId);
    });
    ctx.http.status = 202;
    return presentDelivery(row, (await lastLatencies(ctx.db, [row.id])).get(row.id) ?? null);
  });

export const recoverDeliveries = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/webhooks/{webhookId}/recover',
      tags: ['webhooks'],
      summary: 'Re-send failed deliveries since a time',
      description:
        `Schedules again every failed delivery of this subscription created at or after \`since\` (at most ${RECOVER_MAX_DAYS} days ago), ` +
        'like redeliver does for one, in one transaction; at most 1,000 per call (call again to continue). Answers 202 with the count; 409 while the subscription is disabled.',
      protect: true,
      successDescription: 'Accepted: the deliveries are scheduled.',
    },
  })
  .input(recoverInput)
  .output(recoverOutput)
  .mutation(async ({ ctx, input }) => {
    const recovered = await ctx.db.transaction(async (tx) => {
      await requireActiveWebhook(tx, input.networkId, input.webhookId);
      return recoverFailed(tx, input, new Date(input.since));
    });
    ctx.http.status = 202;
    return { recovered };
  });
