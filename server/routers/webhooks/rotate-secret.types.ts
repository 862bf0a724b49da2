import { z } from 'zod';
import { webhookParams } from './webhook.types';

export const rotateSecretInput = z.strictObject({ ...webhookParams });
