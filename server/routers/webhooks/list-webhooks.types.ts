import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { isoOrNull, networkParam, timestamp } from '@/server/routers/shared.types';
import type { WebhookHealth } from '@/server/services/webhooks/health';
import { HEALTH_WINDOW_LIMIT } from '@/server/services/webhooks/health-window';
import { webhookSchema } from './webhook.types';

export const listWebhooksInput = z.strictObject({ ...networkParam, ...listParams });

export const webhookHealthSchema = z
  .object({
    last_delivery: z
      .object({
        id: z.string().meta({ description: 'The delivery id.' }),
        outcome: z
          .enum(['succeeded', 'failed', 'retrying'])
          .meta({ description: 'After its latest attempt: succeeded, failed for good, or waiting for a retry.' }),
        status_code: z.number().int().nullable().meta({ description: 'The endpoint’s answer to that attempt; null when none arrived.' }),
        attempted_at: timestamp,
      })
      .nullable()
      .meta({ description: 'The most recently attempted delivery; null before the first attempt.' }),
    success_rate_24h: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({
        description: `Of the deliveries attempted in the last 24 hours (the latest ${HEALTH_WINDOW_LIMIT} at most), the share that has succeeded (0–1); null when there were none.`,
      }),
    attempted_24h: z
      .number()
      .int()
      .meta({
        description: `Deliveries attempted in the last 24 hours, counted up to ${HEALTH_WINDOW_LIMIT} (${HEALTH_WINDOW_LIMIT} means at least that many).`,
      }),
  })
  .meta({ id: 'WebhookHealth' });

export const webhookListItemSchema = webhookSchema.extend({ health: webhookHealthSchema }).meta({ id: 'WebhookListItem' });

export const listWebhooksOutput = pageOf(webhookListItemSchema).meta({ id: 'WebhookList' });

export function presentHealth(health: WebhookHealth): z.infer<typeof webhookHealthSchema> {
  const last = health.lastDelivery;
  return {
    last_delivery: last && {
      id: last.id,
      outcome: last.status === 'pending' ? 'retrying' : last.status,
      status_code: last.statusCode,
      attempted_at: isoOrNull(last.attemptedAt)!,
    },
    success_rate_24h: health.attempted24h === 0 ? null : health.succeeded24h / health.attempted24h,
    attempted_24h: health.attempted24h,
  };
}
