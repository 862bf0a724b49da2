import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { deliverySchema, deliveryStatusSchema } from './delivery.types';
import { eventTypeSchema, webhookParams } from './webhook.types';

const isoQuery = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z.` })
    .optional()
    .meta({ description: `Only deliveries created ${name === 'since' ? 'at or after' : 'at or before'} this time.` });

export const listDeliveriesInput = z
  .strictObject({
    ...webhookParams,
    ...listParams,
    status: deliveryStatusSchema.optional(),
    event_type: eventTypeSchema.optional(),
    since: isoQuery('since'),
    until: isoQuery('until'),
    order: z
      .enum(['asc', 'desc'], { error: 'order must be asc or desc.' })
      .default('asc')
      .meta({ description: 'asc: oldest first (default); desc: newest first.' }),
  })
  .refine((v) => !v.since || !v.until || Date.parse(v.since) <= Date.parse(v.until), {
    message: 'since must not be after until.',
    path: ['since'],
  });

export const listDeliveriesOutput = pageOf(deliverySchema).meta({ id: 'WebhookDeliveryList' });
