import { notFound } from '../../errors';
import { findNetworkKey } from '../../services/keys/find-keys';
import { rotateNetworkKey as rotate } from '../../services/keys/rotate-network-key';
import { networkProcedure } from '../../trpc';
import { createdApiKeySchema, presentApiKey } from './api-key.types';
import { rotateNetworkKeyInput } from './rotate-network-key.types';

export const rotateNetworkKey = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/apikeys/{keyId}/rotate',
      tags: ['api keys'],
      summary: 'Rotate a key scoped to the network',
      description:
        'For a key of the network’s members or service accounts scoped to this network only (a key that also reaches other networks → 403; its owner rotates it; any other key → 404). ' +
        'Creates a replacement with the same owner, name, scope and expiry and returns its token once. The old token keeps working for ' +
        '`grace_period_seconds` (default 0), then answers 401.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(rotateNetworkKeyInput)
  .output(createdApiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const { key, token, scopes } = await ctx.db.transaction(async (tx) => {
      const found = await findNetworkKey(tx, input.networkId, input.keyId);
      if (!found) throw notFound('API key');
      return rotate(tx, ctx.principal, input.networkId, found, input.grace_period_seconds ?? 0);
    });
    ctx.http.status = 201;
    return { ...presentApiKey(key, scopes), token };
  });
