import { z } from 'zod';
import { webhookParams } from './webhook.types';

export const RECOVER_MAX_DAYS = 14;

export const recoverDeliveriesInput = z.strictObject({
  ...webhookParams,
  since: z.iso
    .datetime({ offset: true, error: 'since is required and must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00Z.' })
    .refine((v) => Date.parse(v) <= Date.now(), 'since must not be in the future.')
    .refine((v) => Date.parse(v) >= Date.now() - RECOVER_MAX_DAYS * 86_400_000, `since must be at most ${RECOVER_MAX_DAYS} days ago.`)
    .meta({ description: `Re-send failed deliveries created at or after this time (at most ${RECOVER_MAX_DAYS} days ago).` }),
});

export const recoverDeliveriesOutput = z
  .object({ recovered: z.number().int().meta({ description: 'How many failed deliveries were scheduled again.' }) })
  .meta({ id: 'WebhookRecoverResult' });
