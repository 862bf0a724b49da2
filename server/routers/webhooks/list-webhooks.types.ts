import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam } from '@/server/routers/shared.types';
import { webhookSchema } from './webhook.types';

export const listWebhooksInput = z.strictObject({ ...networkParam, ...listParams });

export const listWebhooksOutput = pageOf(webhookSchema).meta({ id: 'WebhookList' });
