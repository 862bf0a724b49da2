import { z } from 'zod';
import { createdApiKeySchema, keyFields } from '@/server/routers/keys/api-key.types';
import { nameField, networkParam, roleSchema } from '@/server/routers/shared.types';
import { serviceAccountSchema } from './service-account.types';

export const DEFAULT_FIRST_KEY_NAME = 'default';

export const createServiceAccountInput = z.strictObject({
  ...networkParam,
  name: nameField,
  role: roleSchema.meta({ description: 'The most the account’s keys may hold; at most your own role on the network.' }),
  key_name: keyFields.key_name.optional().meta({ description: `Name of the first key (default "${DEFAULT_FIRST_KEY_NAME}").` }),
  expires_at: keyFields.expires_at,
});

export const createdServiceAccountSchema = serviceAccountSchema
  .extend({
    api_key: createdApiKeySchema.meta({ description: 'The account’s first key, with its token: returned only now.' }),
  })
  .meta({ id: 'CreatedServiceAccount' });
