import { notFound } from '@/server/errors';
import { findNetworkKey } from '@/server/services/keys/find-keys';
import { rotateNetworkKey } from '@/server/services/keys/rotate-network-key';
import { networkProcedure } from '@/server/trpc';
import { createdApiKeySchema, presentApiKey } from './api-key.types';
import { rotateNetworkKeyInput } from './rotate-network-key.types';

export const rotateNetworkKeyRoute = networkProcedure('administrator')
  .meta({
    withdrawsCredentials: true,
    errors: {
      'not-found': 'No key of this network’s members or service accounts with this id.',
      forbidden: 'The key reaches other networks, or has scopes beyond your access.',
      conflict: 'The key is revoked, expired or already rotated, or its owner no longer holds its role.',
    },
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
      const found = await findNetworkKey({ db: tx, networkId: input.networkId, id: input.keyId });
      if (!found) throw notFound('API key');
      return rotateNetworkKey({ tx, principal: ctx.principal, networkId: input.networkId, found, graceSeconds: input.grace_period_seconds ?? 0 });
    });
    ctx.http.status = 201;
    return { ...presentApiKey(key, scopes), token };
  });
