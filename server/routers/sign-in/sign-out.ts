import { signOut } from '@/server/services/sign-in/sign-out';
import { authedProcedure } from '@/server/trpc';
import { signedOutSchema, signOutInput } from './sign-in.types';

export const signOutRoute = authedProcedure
  .meta({
    withdrawsCredentials: true,
    errors: { 'bad-request': 'The key is not a console session’s (revoke other keys with `DELETE /apikeys/{keyId}`).' },
    openapi: {
      method: 'POST',
      path: '/sign-out',
      tags: ['sign-in'],
      summary: 'Sign out: end this session',
      description:
        'Ends the calling console session: its key expires now and answers 401 from the next request. Ending a session is not revoking ' +
        'its key: invitations it sent stay good while you still administer their network.',
      protect: true,
    },
  })
  .input(signOutInput)
  .output(signedOutSchema)
  .mutation(async ({ ctx }) => {
    const { keyId } = await ctx.db.transaction((tx) => signOut({ tx, principal: ctx.principal }));
    return { key_id: keyId, signed_out: true as const };
  });
