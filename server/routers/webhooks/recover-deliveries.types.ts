import { z } from 'zod';
import { webhookParams } from './webhook.types';

export const recoverDeliveriesInput = z.strictObject({
  ...webhookParams,
  since: z.iso
    .datetime({ offset: true, error: 'since is required and must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z.' })
    .refine((v) => Date.parse(v) <= Date.now(), 'since must not be in the future.')
    .meta({
      description:
        'Re-send failed deliveries created at or after this time; at most the retention window ago (WEBHOOK_RETENTION_DAYS, 30 days by default): older deliveries are deleted.',
    }),
});

export const recoverDeliveriesOutput = z
  .object({ recovered: z.number().int().meta({ description: 'How many failed deliveries were scheduled again.' }) })
  .meta({ id: 'WebhookRecoverResult' });
