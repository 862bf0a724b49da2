import { notFound } from '@/server/errors';
import { findNetworkKey } from '@/server/services/keys/find-keys';
import { removeKeyFromNetwork } from '@/server/services/keys/remove-network-key';
import { networkProcedure } from '@/server/trpc';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { revokeNetworkKeyInput } from './revoke-network-key.types';

export const revokeNetworkKeyRoute = networkProcedure('administrator')
  .meta({
    withdrawsCredentials: true,
    errors: { 'not-found': 'No key of this network’s members or service accounts with this id.' },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/apikeys/{keyId}',
      tags: ['api keys'],
      summary: 'Revoke a key scoped to the network',
      description:
        'A key scoped to this network only is revoked (401 from the next request). A key that also reaches other networks loses only this network’s scope.',
      protect: true,
    },
  })
  .input(revokeNetworkKeyInput)
  .output(apiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.db.transaction(async (tx) => {
      const found = await findNetworkKey({ db: tx, networkId: input.networkId, id: input.keyId });
      if (!found) throw notFound('API key');
      return removeKeyFromNetwork({ tx, principal: ctx.principal, networkId: input.networkId, found });
    });
    return presentApiKey(result.key, result.scopes);
  });
