import { z } from 'zod';
import { webhookParams } from './webhook.types';

export const getWebhookInput = z.strictObject({ ...webhookParams });
