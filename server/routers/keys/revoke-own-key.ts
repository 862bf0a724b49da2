import { notFound } from '../../errors';
import { findOwnKey } from '../../services/keys/find-keys';
import { revokeKey } from '../../services/keys/revoke-key';
import { authedProcedure } from '../../trpc';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { ownKeyInput } from './own-keys.types';

export const revokeOwnKey = authedProcedure
  .meta({
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
  .input(ownKeyInput)
  .output(apiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const revoked = await ctx.db.transaction(async (tx) => {
      const found = await findOwnKey(tx, ctx.principal, input.keyId);
      if (!found) throw notFound('API key');
      return revokeKey(tx, ctx.principal.keyId, found);
    });
    return presentApiKey(revoked.key, revoked.scopes);
  });
