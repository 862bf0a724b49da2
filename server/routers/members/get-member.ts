import { found } from '@/server/errors';
import { findMember } from '@/server/services/members/find-members';
import { networkProcedure } from '@/server/trpc';
import { getMemberInput } from './get-member.types';
import { memberSchema, presentMember } from './member.types';

export const getMemberRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No member with this id in the network.' },
    openapi: { method: 'GET', path: '/networks/{networkId}/members/{memberId}', tags: ['members'], summary: 'Get a member', protect: true },
  })
  .input(getMemberInput)
  .output(memberSchema)
  .query(async ({ ctx, input }) =>
    presentMember(found(await findMember({ db: ctx.db, networkId: input.networkId, memberId: input.memberId }), 'Member')),
  );
