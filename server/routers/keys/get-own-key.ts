import { notFound } from '../../errors';
import { findOwnKey } from '../../services/keys/find-keys';
import { authedProcedure } from '../../trpc';
import { apiKeySchema, presentApiKey } from './api-key.types';
import { ownKeyInput } from './own-keys.types';

export const getOwnKey = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/apikeys/{keyId}', tags: ['api keys'], summary: 'Get one of your keys', description: 'A key of your own person or service account that your key’s access covers (otherwise 404).', protect: true } })
  .input(ownKeyInput)
  .output(apiKeySchema)
  .query(async ({ ctx, input }) => {
    const found = await findOwnKey(ctx.db, ctx.principal, input.keyId);
    if (!found) throw notFound('API key');
    return presentApiKey(found.key, found.scopes);
  });
