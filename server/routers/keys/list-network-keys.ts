import { paginate } from '@/server/http/pagination';
import { listNetworkKeys } from '@/server/services/keys/find-keys';
import { networkProcedure } from '@/server/trpc';
import { apiKeyListSchema, presentApiKey } from './api-key.types';
import { listNetworkKeysInput } from './list-network-keys.types';

export const listNetworkKeysRoute = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/apikeys',
      tags: ['api keys'],
      summary: 'List every key scoped to the network',
      description:
        'Keys of the network’s active members and service accounts with a scope on it (never super_user keys or the operator’s), each showing only its scope on this network. Tokens are never returned.',
      protect: true,
    },
  })
  .input(listNetworkKeysInput)
  .output(apiKeyListSchema)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `network-keys:${input.networkId}`,
      (after, take) => listNetworkKeys({ db: ctx.db, networkId: input.networkId, afterId: after, take }),
      (k) => presentApiKey(k.key, k.scopes),
    ),
  );
