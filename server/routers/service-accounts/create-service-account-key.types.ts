import { z } from 'zod';
import { keyFields } from '@/server/routers/keys/api-key.types';
import { networkParam, roleSchema } from '@/server/routers/shared.types';
import { serviceAccountParam } from './service-account.types';

export const createServiceAccountKeyInput = z.strictObject({
  ...networkParam,
  ...serviceAccountParam,
  ...keyFields,
  role: roleSchema.optional().meta({ description: 'Role of the new key on the network; default and maximum: the account’s role.' }),
});
