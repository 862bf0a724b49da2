import { z } from 'zod';
import { notFound } from '../../errors';
import { listParams, paginate } from '../../http/pagination';
import { findNetworkKey, listNetworkKeys as findNetworkKeys } from '../../services/keys/find-keys';
import { removeKeyFromNetwork } from '../../services/keys/remove-network-key';
import { networkProcedure } from '../../trpc';
import { networkParam } from '../shared.types';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { apiKeyListSchema, keyIdParam } from './own-keys.types';

export const listNetworkKeys = networkProcedure('administrator')
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
  .input(z.strictObject({ ...networkParam, ...listParams }))
  .output(apiKeyListSchema)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `network-keys:${input.networkId}`,
      (after, take) => findNetworkKeys(ctx.db, input.networkId, after, take),
      (k) => presentApiKey(k.key, k.scopes),
    ),
  );

export const revokeNetworkKey = networkProcedure('administrator')
  .meta({
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
  .input(z.strictObject({ ...networkParam, ...keyIdParam }))
  .output(apiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.db.transaction(async (tx) => {
      const found = await findNetworkKey(tx, input.networkId, input.keyId);
      if (!found) throw notFound('API key');
      return removeKeyFromNetwork(tx, ctx.principal, input.networkId, found);
    });
    return presentApiKey(result.key, result.scopes);
  });
