import { router } from '@/server/trpc';
import { createMemberKeyRoute } from './create-member-key';
import { getMemberRoute } from './get-member';
import { listMembersRoute } from './list-members';
import { removeMemberRoute } from './remove-member';
import { updateMemberRoute } from './update-member';

export const membersRouter = router({
  list: listMembersRoute,
  get: getMemberRoute,
  update: updateMemberRoute,
  remove: removeMemberRoute,
  createKey: createMemberKeyRoute,
});
