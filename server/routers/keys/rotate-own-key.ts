import { notFound } from '@/server/errors';
import { findOwnKey } from '@/server/services/keys/find-keys';
import { rotateKey } from '@/server/services/keys/rotate-key';
import { authedProcedure } from '@/server/trpc';
import { createdApiKeySchema, presentApiKey } from './api-key.types';
import { rotateOwnKeyInput } from './rotate-own-key.types';

export const rotateOwnKeyRoute = authedProcedure
  .meta({
    withdrawsCredentials: true,
    errors: {
      'not-found': 'No key with this id that your access covers.',
      forbidden: 'The new key would exceed your access.',
      conflict: 'The key is revoked, expired or already rotated, or its owner no longer holds its role.',
    },
    openapi: {
      method: 'POST',
      path: '/apikeys/{keyId}/rotate',
      tags: ['api keys'],
      summary: 'Rotate one of your keys',
      description:
        'A key of your own person or service account that your key’s access covers (otherwise 404). Creates a replacement with the same name, scopes and expiry and returns its token once. The old token keeps working for `grace_period_seconds` (default 0), then answers 401.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(rotateOwnKeyInput)
  .output(createdApiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const { key, token, scopes } = await ctx.db.transaction(async (tx) => {
      const found = await findOwnKey({ db: tx, caller: ctx.principal, id: input.keyId });
      if (!found) throw notFound('API key');
      return rotateKey({ tx, caller: ctx.principal, found, graceSeconds: input.grace_period_seconds ?? 0 });
    });
    ctx.http.status = 201;
    return { ...presentApiKey(key, scopes), token };
  });
