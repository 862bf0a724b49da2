import { router } from '@/server/trpc';
import { acceptInvitationRoute } from './accept-invitation';
import { createInvitationRoute } from './create-invitation';
import { getCurrentInvitationRoute } from './get-current-invitation';
import { listInvitationsRoute } from './list-invitations';
import { revokeInvitationRoute } from './revoke-invitation';

export const invitationsRouter = router({
  accept: acceptInvitationRoute,
  current: getCurrentInvitationRoute,
  list: listInvitationsRoute,
  create: createInvitationRoute,
  revoke: revokeInvitationRoute,
});
