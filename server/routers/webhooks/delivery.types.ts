import { z } from 'zod';
import { DELIVERY_STATUSES } from '@/domain/statuses';
import { USER_AGENT } from '@/server/services/webhooks/user-agent';
import type { AttemptRow, DeliveryRow } from '@/server/services/webhooks/deliveries';
import { idField, iso, isoOrNull, timestamp } from '@/server/routers/shared.types';
import { webhookParams } from './webhook.types';

/** Path parameters of a delivery route. The id is checked for UUID form by the service (404, not 400). */
export const deliveryParams = {
  ...webhookParams,
  deliveryId: z.string().min(1).meta({ description: 'Delivery id (a UUID; the envelope id and X-Service-Delivery header).' }),
};

export const deliveryStatusSchema = z
  .enum(DELIVERY_STATUSES, { error: 'status must be pending, succeeded or failed.' })
  .meta({ id: 'WebhookDeliveryStatus', description: 'pending (queued or retrying) → succeeded | failed.' });

export const deliverySchema = z
  .object({
    id: z.string().meta({ example: '0b8f6d3e-6a57-4c1e-9b0c-5d2f1e4a7c90' }),
    webhook_id: idField('whk'),
    event_id: idField('evt').nullable().meta({ description: 'The event delivered; null for a test event, which is not in the event log.' }),
    event_type: z.string(),
    test: z.boolean().meta({
      description:
        'True for a test event (POST …/webhooks/{webhookId}/test) and for every delivery of a test network: the body says `"test": true` and the request carries `X-Service-Test: true`.',
    }),
    status: deliveryStatusSchema,
    attempt_count: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_attempt_at: timestamp.nullable(),
    last_latency_ms: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Latency of the latest attempt; null before the first attempt or when no response arrived.' }),
    next_attempt_at: timestamp.nullable().meta({ description: 'When the next retry is due; null when none is scheduled (or it runs now).' }),
    succeeded_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'WebhookDelivery' });

export const attemptSchema = z
  .object({
    attempt_number: z.number().int(),
    started_at: timestamp,
    latency_ms: z.number().int().nullable(),
    status_code: z.number().int().nullable().meta({ description: 'null when no response arrived (see error).' }),
    response_body: z.string().nullable().meta({ description: 'First 1 KiB of the response body.' }),
    error: z.string().nullable().meta({ description: 'Connection error or time-out, when there was no response.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const deliveryDetailSchema = deliverySchema
  .extend({
    request: z
      .object({
        headers: z.object({
          'Content-Type': z.string(),
          'User-Agent': z.string(),
          'X-Service-Event': z.string(),
          'X-Service-Delivery': z.string(),
          'X-Service-Test': z.literal('true').optional().meta({ description: 'Sent on test events and on every delivery of a test network.' }),
          'webhook-id': z.string().meta({ description: 'Standard Webhooks: the delivery id again.' }),
        }),
        body: z.string().meta({ description: 'The exact body sent on every attempt (the signature is computed over these bytes).' }),
      })
      .meta({
        description:
          'What is sent, except the signatures (X-Service-Signature and webhook-signature, never shown) and webhook-timestamp (the time of each attempt).',
      }),
    attempts: z.array(attemptSchema),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

export function presentDelivery(row: DeliveryRow, lastLatencyMs: number | null = null): z.infer<typeof deliverySchema> {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType,
    test: row.test,
    status: row.status,
    attempt_count: row.attemptCount,
    last_status_code: row.lastStatusCode,
    last_attempt_at: isoOrNull(row.lastAttemptAt),
    last_latency_ms: lastLatencyMs,
    next_attempt_at: isoOrNull(row.nextAttemptAt),
    succeeded_at: isoOrNull(row.succeededAt),
    created_at: iso(row.createdAt),
  };
}

export function presentDeliveryDetail(row: DeliveryRow, attempts: AttemptRow[]): z.infer<typeof deliveryDetailSchema> {
  return {
    ...presentDelivery(row, attempts.at(-1)?.latencyMs ?? null),
    request: {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'X-Service-Event': row.eventType,
        'X-Service-Delivery': row.id,
        ...(row.test ? { 'X-Service-Test': 'true' as const } : {}),
        'webhook-id': row.id,
      },
      body: row.body,
    },
    attempts: attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      started_at: iso(a.startedAt),
      latency_ms: a.latencyMs,
      status_code: a.statusCode,
      response_body: a.responseBody,
      error: a.error,
    })),
  };
}
