import { notFound } from '@/server/errors';
import { findOwnKey } from '@/server/services/keys/find-keys';
import { revokeKey } from '@/server/services/keys/revoke-key';
import { authedProcedure } from '@/server/trpc';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { revokeOwnKeyInput } from './revoke-own-key.types';

export const revokeOwnKeyRoute = authedProcedure
  .meta({
    withdrawsCredentials: true,
    errors: { 'not-found': 'No key with this id that your access covers.' },
    openapi: {
      method: 'DELETE',
      path: '/apikeys/{keyId}',
      tags: ['api keys'],
      summary: 'Revoke one of your keys',
      description:
        'A key of your own person or service account that your key’s access covers (otherwise 404). Immediate: the next request with its token gets 401. Revoking a revoked key changes nothing.',
      protect: true,
    },
  })
  .input(revokeOwnKeyInput)
  .output(apiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const revoked = await ctx.db.transaction(async (tx) => {
      const found = await findOwnKey({ db: tx, caller: ctx.principal, id: input.keyId });
      if (!found) throw notFound('API key');
      return revokeKey({ tx, actorKeyId: ctx.principal.keyId, found });
    });
    return presentApiKey(revoked.key, revoked.scopes);
  });
