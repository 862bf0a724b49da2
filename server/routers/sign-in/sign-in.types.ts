import { z } from 'zod';
import { createdApiKeySchema } from '@/server/routers/keys/api-key.types';
import { emailAddress, idField } from '@/server/routers/shared.types';
import { SIGN_IN_LINK_MINUTES } from '@/server/services/sign-in/sign-in-link';

export const requestSignInInput = z.strictObject({
  email: emailAddress.meta({ description: 'The address to send the link to: the one your invitations were sent to.' }),
});

export const signInRequestedSchema = z
  .object({
    email: z.string().meta({ description: 'The address, as it will be looked up (trimmed, lower-cased).' }),
    link_expires_in_seconds: z
      .number()
      .int()
      .meta({ description: `How long a link sent now works (${SIGN_IN_LINK_MINUTES} minutes).` }),
  })
  .meta({
    id: 'SignInRequested',
    description: 'The same answer whether or not the address has an account: only its owner learns that, from their mailbox.',
  });

export const completeSignInInput = z.strictObject({}).optional();

export const sessionSchema = z
  .object({
    person: z.object({ id: idField('usr'), name: z.string(), email: z.string() }),
    api_key: createdApiKeySchema.meta({
      description:
        'The session’s key (`session: true`): scoped to each network you are an active member of, at your role there, until `expires_at`. The token is shown only now.',
    }),
  })
  .meta({ id: 'Session' });

export const signOutInput = z.strictObject({}).optional();

export const signedOutSchema = z.object({ key_id: idField('key'), signed_out: z.literal(true) }).meta({ id: 'SignedOut' });
