import { paginate } from '@/server/http/pagination';
import { listMembers, type MemberRecord } from '@/server/services/members/find-members';
import { networkProcedure } from '@/server/trpc';
import { listMembersInput, listMembersOutput } from './list-members.types';
import { presentMember, type Member } from './member.types';

export const listMembersRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/members',
      tags: ['members'],
      summary: 'List the network’s members',
      description: 'Active members by default (`status=removed` for former ones). Ordered by id.',
      protect: true,
    },
  })
  .input(listMembersInput)
  .output(listMembersOutput)
  .query(({ ctx, input }) =>
    paginate<MemberRecord & { id: string }, Member>(
      input,
      `members:${input.networkId}:${input.status}`,
      (after, take) => listMembers({ db: ctx.db, networkId: input.networkId, status: input.status, afterId: after, take }),
      presentMember,
    ),
  );
