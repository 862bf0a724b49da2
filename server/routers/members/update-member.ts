import { expectedVersion } from '@/server/http/locking';
import { changeMemberRole } from '@/server/services/members/change-member-role';
import { networkProcedure } from '@/server/trpc';
import { memberSchema, presentMember } from './member.types';
import { updateMemberInput } from './update-member.types';

export const updateMemberRoute = networkProcedure('administrator')
  .meta({
    withdrawsCredentials: true,
    errors: {
      'not-found': 'No member with this id in the network.',
      conflict: 'The version is stale, the member was removed, or the change would leave no active administrator.',
    },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}/members/{memberId}',
      tags: ['members'],
      summary: 'Change a member’s role',
      description:
        'Optimistically locked (If-Match or `version`; stale → 409). Demoting the last active administrator → 409. ' +
        'The person’s keys act with the new role from their next request. A demotion to read_only also lowers their keys’ scope here ' +
        'for good (a later promotion raises no old key) and revokes the invitations they sent to this network.',
      protect: true,
    },
  })
  .input(updateMemberInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), input.version);
    const member = await ctx.db.transaction((tx) =>
      changeMemberRole({
        tx,
        networkId: input.networkId,
        memberId: input.memberId,
        role: input.role,
        expectedVersion: expected,
        actorKeyId: ctx.principal.keyId,
      }),
    );
    return presentMember(member);
  });
