import { found } from '@/server/errors';
import { findNetworkKey, inNetwork } from '@/server/services/keys/find-keys';
import { networkProcedure } from '@/server/trpc';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { getNetworkKeyInput } from './get-network-key.types';

export const getNetworkKeyRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No key of this network’s members or service accounts with this id.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/apikeys/{keyId}',
      tags: ['api keys'],
      summary: 'Get a key scoped to the network',
      description: 'One of the keys the network’s list shows, with only its scope on this network. Tokens are never returned.',
      protect: true,
    },
  })
  .input(getNetworkKeyInput)
  .output(apiKeySchema)
  .query(async ({ ctx, input }) => {
    const key = inNetwork(found(await findNetworkKey({ db: ctx.db, networkId: input.networkId, id: input.keyId }), 'API key'), input.networkId);
    return presentApiKey(key.key, key.scopes);
  });
