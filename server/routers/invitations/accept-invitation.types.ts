import { z } from 'zod';
import { nameField } from '../shared.types';
import { createdApiKeySchema, keyFields } from '../keys/api-key.types';
import { memberSchema } from '../members/member.types';

export const acceptInvitationInput = z.strictObject({
  name: nameField.optional().meta({ description: 'Your display name (used when you are new to the service).' }),
  key_name: keyFields.key_name.optional().meta({ description: 'Name of your first API key (default "first key").' }),
});

export const acceptedInvitationSchema = z
  .object({
    member: memberSchema,
    api_key: createdApiKeySchema.meta({ description: 'Your first API key, scoped to the network with the invited role. The token is shown only now.' }),
  })
  .meta({ id: 'AcceptedInvitation' });
