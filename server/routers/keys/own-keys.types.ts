import { z } from 'zod';
import { listParams, pageOf } from '../../http/page';
import { apiKeySchema, keyFields, scopeInput } from './api-key.types';

export const keyIdParam = { keyId: z.string().min(1).meta({ description: 'API key id (key_…).' }) };

export const listOwnKeysInput = z.strictObject({ ...listParams });
export const apiKeyListSchema = pageOf(apiKeySchema).meta({ id: 'ApiKeyList' });

export const createOwnKeyInput = z.strictObject({
  ...keyFields,
  scopes: z
    .array(scopeInput)
    .max(500)
    .optional()
    .meta({ description: 'Networks and roles, each within your own access. Default: the calling key’s scopes.' }),
  super_user: z.boolean().optional().meta({ description: 'Only a super_user key may mint a super_user key.' }),
});

export const ownKeyInput = z.strictObject({ ...keyIdParam });

export const rotateKeyInput = z.strictObject({
  ...keyIdParam,
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional()
    .meta({ description: 'How long the old token keeps working (0–604800 s). Default 0: it stops now.' }),
});
