import { expectedVersion } from '@/server/http/locking';
import { removeMember } from '@/server/services/members/remove-member';
import { networkProcedure } from '@/server/trpc';
import { memberSchema, presentMember } from './member.types';
import { removeMemberInput } from './remove-member.types';

export const removeMemberRoute = networkProcedure('administrator')
  .meta({
    withdrawsCredentials: true,
    errors: {
      'not-found': 'No member with this id in the network.',
      conflict: 'The version is stale, or the member is the last active administrator.',
    },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/members/{memberId}',
      tags: ['members'],
      summary: 'Remove a member',
      description:
        'Answers 200 with the member, now `status: "removed"`. Final for this network: every key of the person loses its scope here at ' +
        'once, for good, and the invitations they sent to it are revoked; inviting them again gives a fresh key, never the old ones ' +
        'back. Removing the last active administrator → 409. Removing a removed member changes nothing. ' +
        'Optionally locked with If-Match.',
      protect: true,
    },
  })
  .input(removeMemberInput)
  .output(memberSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), undefined);
    const member = await ctx.db.transaction((tx) =>
      removeMember({ tx, networkId: input.networkId, memberId: input.memberId, expectedVersion: expected, actorKeyId: ctx.principal.keyId }),
    );
    return presentMember(member);
  });
