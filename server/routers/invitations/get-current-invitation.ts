import { badRequest } from '@/server/errors';
import { findInvitationDetails } from '@/server/services/invitations/find-invitations';
import { invitationProcedure } from '@/server/trpc';
import { getCurrentInvitationInput, invitationDetailsSchema, presentInvitationDetails } from './get-current-invitation.types';

export const getCurrentInvitationRoute = invitationProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/invitations/current',
      tags: ['invitations'],
      summary: 'Read the invitation a token is for',
      description:
        'With the invitation token as the bearer (`Authorization: Bearer inv_…`), what the person invited needs before accepting: the ' +
        'network (id and name), the email and role invited, who sent it, its status and when it expires. Read-only: the token stays ' +
        'acceptable. An API key as the bearer answers 400. Unknown or malformed token → 401 (counts against the failed-authentication limit).',
      protect: true,
    },
  })
  .input(getCurrentInvitationInput)
  .output(invitationDetailsSchema)
  .query(async ({ ctx }) => {
    if (!ctx.invitation) throw badRequest('Send the invitation token (inv_…) as the bearer: `Authorization: Bearer inv_…`.');
    return presentInvitationDetails(await findInvitationDetails({ db: ctx.db, invitation: ctx.invitation.row }));
  });
