import { notFound } from '../../errors';
import { findOwnKey } from '../../services/keys/find-keys';
import { rotateKey } from '../../services/keys/rotate-key';
import { authedProcedure } from '../../trpc';
import { createdApiKeySchema, presentApiKey } from './api-key.types';
import { rotateKeyInput } from './own-keys.types';

export const rotateOwnKey = authedProcedure
  .meta({
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
  .input(rotateKeyInput)
  .output(createdApiKeySchema)
  .mutation(async ({ ctx, input }) => {
    const { key, token, scopes } = await ctx.db.transaction(async (tx) => {
      const found = await findOwnKey(tx, ctx.principal, input.keyId);
      if (!found) throw notFound('API key');
      return rotateKey(tx, ctx.principal, found, input.grace_period_seconds ?? 0);
    });
    ctx.http.status = 201;
    return { ...presentApiKey(key, scopes), token };
  });
