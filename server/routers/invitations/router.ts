import { router } from '../../trpc';
import { acceptInvitation } from './accept-invitation';
import { createInvitation } from './create-invitation';
import { listInvitations } from './list-invitations';
import { revokeInvitation } from './revoke-invitation';

export const invitationsRouter = router({
  accept: acceptInvitation,
  list: listInvitations,
  create: createInvitation,
  revoke: revokeInvitation,
});
