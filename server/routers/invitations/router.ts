import { router } from '@/server/trpc';
import { acceptInvitationRoute } from './accept-invitation';
import { createInvitationRoute } from './create-invitation';
import { listInvitationsRoute } from './list-invitations';
import { revokeInvitationRoute } from './revoke-invitation';

export const invitationsRouter = router({
  accept: acceptInvitationRoute,
  list: listInvitationsRoute,
  create: createInvitationRoute,
  revoke: revokeInvitationRoute,
});
