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
        'Keys of the network’s active members and service accounts with a scope on it (never super_user keys or the operator’s), each showing only its scope on this network. Tokens are never returned. Filters `owner_id` and `status` combine with the cursor.',
      protect: true,
    },
  })
  .input(listNetworkKeysInput)
  .output(apiKeyListSchema)
  .query(({ ctx, input }) =>
    paginate(
      input,
      // Unfiltered, the scope cursors have always had: a page handed out before the filters existed still continues.
      input.owner_id || input.status
        ? `network-keys:${input.networkId}:owner=${input.owner_id ?? ''}:status=${input.status ?? ''}`
        : `network-keys:${input.networkId}`,
      (after, take) =>
        listNetworkKeys({ db: ctx.db, networkId: input.networkId, filter: { ownerId: input.owner_id, status: input.status }, afterId: after, take }),
      (k) => presentApiKey(k.key, k.scopes),
    ),
  );
