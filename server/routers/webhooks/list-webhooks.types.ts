import { z } from 'zod';
import { listParams, pageOf } from '../../http/page';
import { networkParam } from '../shared.types';
import { webhookSchema } from './webhook.types';

export const listWebhooksInput = z.strictObject({ ...networkParam, ...listParams });

export const listWebhooksOutput = pageOf(webhookSchema).meta({ id: 'WebhookList' });
