import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { deliverySchema, deliveryStatusSchema } from './delivery.types';
import { eventTypeSchema, webhookParams } from './webhook.types';
import { sinceNotAfterUntil, timeRange } from '@/server/routers/shared.types';

export const listDeliveriesInput = z
  .strictObject({
    ...webhookParams,
    ...listParams,
    status: deliveryStatusSchema.optional(),
    event_type: eventTypeSchema.optional(),
    ...timeRange('deliveries created'),
    order: z
      .enum(['asc', 'desc'], { error: 'order must be asc or desc.' })
      .default('asc')
      .meta({ description: 'asc: oldest first (default); desc: newest first.' }),
  })
  .refine(...sinceNotAfterUntil);

export const listDeliveriesOutput = pageOf(deliverySchema).meta({ id: 'WebhookDeliveryList' });
