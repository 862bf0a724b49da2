import { z } from 'zod';
import { keyFields, scopeInput } from './api-key.types';

export const createOwnKeyInput = z.strictObject({
  ...keyFields,
  scopes: z
    .array(scopeInput)
    .max(500)
    .optional()
    .meta({ description: 'Networks and roles, each within your own access. Default: the calling key’s scopes.' }),
  super_user: z.boolean().optional().meta({ description: 'Only a super_user key may mint a super_user key.' }),
});
