import { z } from 'zod';
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '@/domain/events';
import type { WebhookRow } from '@/server/services/webhooks/subscriptions';
import { idField, isoOrNull, maxCharacters, networkParam, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';

/** Path parameters of a webhook route. */
export const webhookParams = {
  ...networkParam,
  webhookId: z.string().min(1).meta({ description: 'Webhook subscription id (whk_…).' }),
};

export const webhookUrlField = z
  .string({ error: 'url is required and must be a string (an http or https URL).' })
  .trim()
  .check(maxCharacters(2048, 'url must be at most 2048 characters.'))
  .pipe(z.url({ protocol: /^https?$/, error: 'url must be an http or https URL.' }))
  .meta({ description: 'Delivery target. https in live mode; private, loopback and link-local targets are refused.' });

export const eventTypeSchema = z
  .enum(EVENT_TYPE_NAMES, { error: `each event must be one of: ${EVENT_TYPE_NAMES.join(', ')}.` })
  // What each event means, beside its name in the reference (x-enumDescriptions, as Scalar and Redoc read it).
  .meta({ id: 'WebhookEventType', 'x-enumDescriptions': EVENT_TYPES });

export const eventsField = z
  .array(eventTypeSchema, { error: 'events is required and must be an array of event types.' })
  .min(1, 'events must name at least one event type.')
  .refine((list) => new Set(list).size === list.length, { message: 'events must not contain duplicates.' })
  .meta({ description: 'Event types this subscription receives (see GET /event-types).' });

export const descriptionField = z
  .string({ error: 'description must be a string.' })
  .check(maxCharacters(500, 'description must be at most 500 characters.'));

export const webhookStatusSchema = z.enum(['active', 'disabled'], { error: 'status must be active or disabled.' }).meta({
  id: 'WebhookStatus',
  description: 'active ↔ disabled; a disabled subscription receives nothing.',
});

export const webhookSchema = z
  .object({
    id: z.string().meta({ example: 'whk_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: webhookStatusSchema,
    disabled_reason: z.string().nullable(),
    secret_rotation_ends_at: timestamp.nullable().meta({ description: 'While a secret rotation runs: when the previous secret stops being used.' }),
    ...versionedFields,
  })
  .meta({ id: 'Webhook' });

export type Webhook = z.infer<typeof webhookSchema>;

export function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    network_id: row.networkId,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabledReason,
    secret_rotation_ends_at: isoOrNull(row.previousSecretExpiresAt),
    ...versionedOf(row),
  };
}
