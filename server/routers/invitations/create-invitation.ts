import { config } from '@/server/config';
import { createInvitation } from '@/server/services/invitations/create-invitation';
import { networkProcedure } from '@/server/trpc';
import { createdInvitationSchema, createInvitationInput } from './create-invitation.types';
import { presentInvitation } from './invitation.types';

export const createInvitationRoute = networkProcedure('administrator')
  .meta({
    errors: {
      conflict: 'The email is already an active member of the network.',
      'quota-exceeded': 'The network already has as many pending invitations as it may (QUOTA_PENDING_INVITATIONS_PER_NETWORK).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/invitations',
      tags: ['invitations'],
      summary: 'Invite a person to the network',
      description:
        "Emails the invitee a link to accept it (the console's accept page), sent when the invitation commits. Answers 201 with the " +
        'invitation and, in test mode (`APP_ENV=test`) only, its `token`, once (only a hash is stored): in live mode the token reaches ' +
        "only the invitee's mailbox. The person accepts with `POST /invitations/accept` and the token as bearer. Inviting an active member → 409.",
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createInvitationInput)
  .output(createdInvitationSchema)
  .mutation(async ({ ctx, input }) => {
    const { invitation, token, emailId } = await ctx.db.transaction((tx) =>
      createInvitation({
        tx,
        networkId: input.networkId,
        email: input.email,
        role: input.role,
        expiresInDays: input.expires_in_days,
        actorKeyId: ctx.principal.keyId,
      }),
    );
    ctx.http.status = 201;
    return { ...presentInvitation(invitation), email_id: emailId, ...(config().APP_ENV === 'test' ? { token } : {}) };
  });
