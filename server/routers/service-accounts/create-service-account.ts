import { createServiceAccount } from '@/server/services/service-accounts/create-service-account';
import { networkProcedure } from '@/server/trpc';
import { presentApiKey } from '@/server/routers/keys/api-key.types';
import { createdServiceAccountSchema, createServiceAccountInput, DEFAULT_FIRST_KEY_NAME } from './create-service-account.types';
import { presentServiceAccount } from './service-account.types';

export const createServiceAccountRoute = networkProcedure('administrator')
  .meta({
    errors: {
      forbidden: 'The first key would exceed your own access.',
      conflict: 'The account would not hold the first key’s role.',
      'quota-exceeded':
        'Not in practice: the first key is minted like every key, against its owner’s quota of API keys (QUOTA_API_KEYS_PER_OWNER), which a new account has not reached.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/service-accounts',
      tags: ['service accounts'],
      summary: 'Create a service account and its first key',
      description:
        'Answers 201 with the account and, in `api_key`, its first key scoped to this network with the account’s role. ' +
        'The key’s `token` is shown only in this response.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createServiceAccountInput)
  .output(createdServiceAccountSchema)
  .mutation(async ({ ctx, input }) => {
    const { account, firstKey } = await ctx.db.transaction((tx) =>
      createServiceAccount({
        tx,
        principal: ctx.principal,
        networkId: input.networkId,
        name: input.name,
        role: input.role,
        key: {
          name: input.key_name ?? DEFAULT_FIRST_KEY_NAME,
          expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
        },
      }),
    );
    ctx.http.status = 201;
    return {
      ...presentServiceAccount(account),
      api_key: { ...presentApiKey(firstKey.key, firstKey.scopes), token: firstKey.token },
    };
  });
