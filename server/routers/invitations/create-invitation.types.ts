import { z } from 'zod';
import { wholeNumberField } from '@/server/http/whole-number';
import { emailAddress, idField, networkParam, roleSchema } from '@/server/routers/shared.types';
import { invitationSchema } from './invitation.types';

export const createInvitationInput = z.strictObject({
  ...networkParam,
  email: emailAddress.meta({ description: 'Who is invited; stored lower-cased.' }),
  role: roleSchema,
  expires_in_days: wholeNumberField('expires_in_days', { min: 1, max: 30, fallback: 7 }).meta({
    description: 'Days until the invitation expires, 1–30 (default 7).',
  }),
});

export const createdInvitationSchema = invitationSchema
  .extend({
    email_id: idField('eml').meta({ description: 'The email that carries the accept link to the invitee (`GET /emails/{emailId}`).' }),
    token: z
      .string()
      .meta({
        description:
          'Test mode (`APP_ENV=test`) only: the invitation token (inv_…), returned only now, for integration tests and sandboxes. ' +
          'In live mode it is absent: the emailed link is the only copy.',
      })
      .optional(),
  })
  .meta({ id: 'CreatedInvitation' });
