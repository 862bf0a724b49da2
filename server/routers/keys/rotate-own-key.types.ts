import { z } from 'zod';
import { keyIdParam } from './api-key.types';

export const rotateOwnKeyInput = z.strictObject({
  ...keyIdParam,
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional()
    .meta({ description: 'How long the old token keeps working (0–604800 s). Default 0: it stops now.' }),
});
