import { z } from 'zod';
import { versionField } from '@/server/routers/shared.types';
import { descriptionField, eventsField, webhookParams, webhookStatusSchema, webhookUrlField } from './webhook.types';

export const updateWebhookInput = z.strictObject({
  ...webhookParams,
  url: webhookUrlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.nullable().optional().meta({ description: 'null clears it.' }),
  status: webhookStatusSchema.optional(),
  version: versionField,
});
