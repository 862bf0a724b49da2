import { createOwnKey } from '@/server/services/keys/create-own-key';
import { authedProcedure } from '@/server/trpc';
import { createdApiKeySchema, presentApiKey } from './api-key.types';
import { createOwnKeyInput } from './create-own-key.types';

export const createOwnKeyRoute = authedProcedure
  .meta({
    errors: {
      forbidden: 'A scope beyond your own access, or super_user from a key that is not one.',
      conflict: 'The key’s owner does not hold the asked role on a network, so the scope would not work.',
      'quota-exceeded': 'Your person or service account already has as many active API keys as one owner may (QUOTA_API_KEYS_PER_OWNER).',
    },
    openapi: {
      method: 'POST',
      path: '/apikeys',
      tags: ['api keys'],
      summary: 'Create a key for yourself',
      description:
        'The new key belongs to the same person or service account. Its scopes must be within your access (same networks, equal or lower role); only a super_user key may create a super_user key. The token is returned once.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createOwnKeyInput)
  .output(createdApiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const { key, token, scopes } = await ctx.db.transaction((tx) =>
      createOwnKey({
        tx,
        principal: ctx.principal,
        name: input.key_name,
        scopes: input.scopes?.map((s) => ({ networkId: s.network_id, role: s.role })),
        superUser: input.super_user,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    ctx.http.status = 201;
    return { ...presentApiKey(key, scopes), token };
  });
