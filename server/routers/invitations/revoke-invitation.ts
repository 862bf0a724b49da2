import { revokeInvitation } from '@/server/services/invitations/revoke-invitation';
import { networkProcedure } from '@/server/trpc';
import { invitationSchema, presentInvitation } from './invitation.types';
import { revokeInvitationInput } from './revoke-invitation.types';

export const revokeInvitationRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No invitation with this id in the network.', conflict: 'The invitation is not pending.' },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/invitations/{invitationId}',
      tags: ['invitations'],
      summary: 'Revoke an invitation',
      description: 'pending → revoked; answers 200 with the invitation. An accepted, revoked or expired invitation → 409.',
      protect: true,
    },
  })
  .input(revokeInvitationInput)
  .output(invitationSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      revokeInvitation({ tx, networkId: input.networkId, invitationId: input.invitationId, actorKeyId: ctx.principal.keyId }),
    );
    return presentInvitation(row);
  });
