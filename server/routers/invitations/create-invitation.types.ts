import { z } from 'zod';
import { networkParam, roleSchema } from '@/server/routers/shared.types';
import { invitationSchema } from './invitation.types';

export const createInvitationInput = z.strictObject({
  ...networkParam,
  email: z
    .string({ error: 'email is required and must be a string.' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'email must be a valid email address.' }).max(320))
    .meta({ description: 'Who is invited; stored lower-cased.' }),
  role: roleSchema,
  expires_in_days: z
    .number({ error: 'expires_in_days must be a whole number from 1 to 30.' })
    .int('expires_in_days must be a whole number from 1 to 30.')
    .min(1, 'expires_in_days must be at least 1.')
    .max(30, 'expires_in_days must be at most 30.')
    .default(7)
    .meta({ description: 'Days until the invitation expires, 1–30 (default 7).' }),
});

export const createdInvitationSchema = invitationSchema
  .extend({
    token: z.string().meta({
      description: 'The invitation token (inv_…), returned only now. Send it to the person; they accept with `Authorization: Bearer inv_…`.',
    }),
  })
  .meta({ id: 'CreatedInvitation' });
