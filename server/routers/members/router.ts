import { router } from '../../trpc';
import { createMemberKey } from './create-member-key';
import { getMember } from './get-member';
import { listMembers } from './list-members';
import { removeMember } from './remove-member';
import { updateMember } from './update-member';

export const membersRouter = router({
  list: listMembers,
  get: getMember,
  update: updateMember,
  remove: removeMember,
  createKey: createMemberKey,
});
