import { z } from 'zod';
import { roleSchema } from '@/server/routers/shared.types';
import { keyFields } from '@/server/routers/keys/api-key.types';
import { memberParams } from './member.types';

export const createMemberKeyInput = z.strictObject({
  ...memberParams,
  ...keyFields,
  role: roleSchema.optional().meta({ description: 'The key’s role on this network: at most the member’s role (the default).' }),
});
