import { createServiceAccountKey } from '@/server/services/service-accounts/mint-service-account-key';
import { networkProcedure } from '@/server/trpc';
import { createdApiKeySchema, presentApiKey } from '@/server/routers/keys/api-key.types';
import { createServiceAccountKeyInput } from './create-service-account-key.types';

export const createServiceAccountKeyRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No service account with this id in the network.',
      forbidden: 'A role above the account’s, or beyond your own access.',
      conflict: 'The service account is deleted.',
      'quota-exceeded': 'The service account already has as many active API keys as one owner may (QUOTA_API_KEYS_PER_OWNER).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/service-accounts/{serviceAccountId}/keys',
      tags: ['service accounts'],
      summary: 'Mint another key for a service account',
      description:
        'The key is scoped to this network with `role` (default: the account’s role; never above it nor above your own access). ' +
        'Its `token` is shown only in this response. A deleted account answers 409.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createServiceAccountKeyInput)
  .output(createdApiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const minted = await ctx.db.transaction((tx) =>
      createServiceAccountKey({
        tx,
        principal: ctx.principal,
        networkId: input.networkId,
        serviceAccountId: input.serviceAccountId,
        name: input.key_name,
        role: input.role,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    ctx.http.status = 201;
    return { ...presentApiKey(minted.key, minted.scopes), token: minted.token };
  });
