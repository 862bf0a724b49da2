import { z } from 'zod';
import { INVITATION_TOKEN_PATTERN } from '@/server/services/invitations/invitation-status';
import { nameField } from '@/server/routers/shared.types';
import { createdApiKeySchema, keyFields } from '@/server/routers/keys/api-key.types';
import { memberSchema } from '@/server/routers/members/member.types';

export const acceptInvitationInput = z.strictObject({
  invitation_token: z
    .string()
    .regex(INVITATION_TOKEN_PATTERN, 'invitation_token must be the inv_… token from the invitation.')
    .optional()
    .meta({ description: 'The invitation token, when you authenticate with one of your own API keys (you already have an account).' }),
  name: nameField.optional().meta({ description: 'Your display name (used when you are new to the service).' }),
  key_name: keyFields.key_name.optional().meta({ description: 'Name of your first API key (default "first key").' }),
});

export const acceptedInvitationSchema = z
  .object({
    member: memberSchema,
    api_key: createdApiKeySchema.meta({
      description: 'Your first API key, scoped to the network with the invited role. The token is shown only now.',
    }),
  })
  .meta({ id: 'AcceptedInvitation' });
