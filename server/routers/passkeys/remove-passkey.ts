import { notFound } from '@/server/errors';
import { removePasskey } from '@/server/services/passkeys/register-passkey';
import { authedProcedure } from '@/server/trpc';
import { removedPasskeySchema, removePasskeyInput } from './passkeys.types';

export const removePasskeyRoute = authedProcedure
  .meta({
    errors: {
      forbidden: 'The key is not a console session: sign in with an emailed link first.',
      'not-found': 'No passkey of yours has this id.',
    },
    openapi: {
      method: 'DELETE',
      path: '/me/passkeys/{passkeyId}',
      tags: ['sign-in'],
      summary: 'Remove a passkey',
      description: 'It signs nobody in from now on. Sessions it started keep working until they end.',
      protect: true,
    },
  })
  .input(removePasskeyInput)
  .output(removedPasskeySchema)
  .mutation(async ({ ctx, input }) => {
    const removed = await ctx.db.transaction((tx) => removePasskey({ tx, principal: ctx.principal, passkeyId: input.passkeyId }));
    if (!removed) throw notFound('Passkey');
    return { id: removed.id, deleted: true as const };
  });
