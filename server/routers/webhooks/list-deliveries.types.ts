import { z } from 'zod';
import { listParams, orderParam, pageOf } from '@/server/http/page';
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
    ...orderParam,
  })
  .refine(...sinceNotAfterUntil);

export const listDeliveriesOutput = pageOf(deliverySchema).meta({ id: 'WebhookDeliveryList' });
