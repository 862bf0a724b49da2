import { z } from 'zod';
import { webhookParams } from './webhook.types';

export const deleteWebhookInput = z.strictObject({ ...webhookParams });
