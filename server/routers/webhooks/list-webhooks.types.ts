import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { isoOrNull, networkParam, timestamp } from '@/server/routers/shared.types';
import type { WebhookHealth } from '@/server/services/webhooks/health';
import { webhookSchema } from './webhook.types';

export const listWebhooksInput = z.strictObject({ ...networkParam, ...listParams });

export const webhookHealthSchema = z
  .object({
    last_delivery: z
      .object({
        id: z.string().meta({ description: 'The delivery id.' }),
        outcome: z.enum(['succeeded', 'failed', 'retrying']).meta({ description: 'After its latest attempt: succeeded, failed for good, or waiting for a retry.' }),
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
      .meta({ description: 'Of the deliveries attempted in the last 24 hours, the share that has succeeded (0–1); null when there were none.' }),
    attempted_24h: z.number().int().meta({ description: 'Deliveries attempted in the last 24 hours.' }),
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
