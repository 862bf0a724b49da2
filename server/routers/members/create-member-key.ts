import { mintMemberKey } from '@/server/services/members/mint-member-key';
import { networkProcedure } from '@/server/trpc';
import { createdApiKeySchema, presentApiKey } from '@/server/routers/keys/api-key.types';
import { createMemberKeyInput } from './create-member-key.types';

export const createMemberKeyRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No member with this id in the network.',
      forbidden: 'The key would exceed your own access.',
      conflict: 'The member has been removed, or does not hold the asked role.',
      'quota-exceeded': 'The person already has as many active API keys as one owner may (QUOTA_API_KEYS_PER_OWNER).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/members/{memberId}/keys',
      tags: ['members'],
      summary: 'Mint an API key for a member',
      description:
        'The key belongs to the person and is scoped to this network only, with `role` (default: the member’s role; never above it, ' +
        'nor above your own). The token is returned once.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createMemberKeyInput)
  .output(createdApiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const { key, token, scopes } = await ctx.db.transaction((tx) =>
      mintMemberKey({
        tx,
        creator: ctx.principal,
        networkId: input.networkId,
        memberId: input.memberId,
        name: input.key_name,
        role: input.role,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    ctx.http.status = 201;
    return { ...presentApiKey(key, scopes), token };
  });
