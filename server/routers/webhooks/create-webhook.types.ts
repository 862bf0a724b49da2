import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';
import { descriptionField, eventsField, webhookSchema, webhookUrlField } from './webhook.types';

export const createWebhookInput = z.strictObject({
  ...networkParam,
  url: webhookUrlField,
  events: eventsField,
  description: descriptionField.nullable().optional(),
});

export const createWebhookOutput = webhookSchema
  .extend({ secret: z.string().meta({ description: 'Signing secret (whsec_…), returned only in this response.' }) })
  .meta({ id: 'WebhookWithSecret' });
