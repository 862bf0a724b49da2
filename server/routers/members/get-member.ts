import { notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { findMember } from '../../services/members/find-members';
import { networkProcedure } from '../../trpc';
import { getMemberInput } from './get-member.types';
import { memberSchema, presentMember } from './member.types';

export const getMember = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/members/{memberId}', tags: ['members'], summary: 'Get a member', protect: true } })
  .input(getMemberInput)
  .output(memberSchema)
  .query(async ({ ctx, input }) => {
    const member = await findMember(ctx.db, input.networkId, input.memberId);
    if (!member) throw notFound('Member');
    setEtag(ctx.http, member.membership.version);
    return presentMember(member);
  });
