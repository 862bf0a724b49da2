import { notFound } from '@/server/errors';
import { findOwnKey } from '@/server/services/keys/find-keys';
import { authedProcedure } from '@/server/trpc';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { getOwnKeyInput } from './get-own-key.types';

export const getOwnKeyRoute = authedProcedure
  .meta({
    errors: { 'not-found': 'No key with this id that your access covers.' },
    openapi: {
      method: 'GET',
      path: '/apikeys/{keyId}',
      tags: ['api keys'],
      summary: 'Get one of your keys',
      description: 'A key of your own person or service account that your key’s access covers (otherwise 404).',
      protect: true,
    },
  })
  .input(getOwnKeyInput)
  .output(apiKeySchema)
  .query(async ({ ctx, input }) => {
    const found = await findOwnKey({ db: ctx.db, caller: ctx.principal, id: input.keyId });
    if (!found) throw notFound('API key');
    return presentApiKey(found.key, found.scopes);
  });
