import { paginate } from '../../http/pagination';
import { listOwnKeys as findOwnKeys } from '../../services/keys/find-keys';
import { ownerOf } from '../../services/keys/owner';
import { authedProcedure } from '../../trpc';
import { presentApiKey } from './api-key.types';
import { apiKeyListSchema, listOwnKeysInput } from './own-keys.types';

export const listOwnKeys = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apikeys',
      tags: ['api keys'],
      summary: 'List the keys of your own owner',
      description:
        'The keys of the person or service account the calling key belongs to that the calling key’s access covers: a key with a scope beyond it (another network, or administrator where it reads only) or a super_user key (for a key that is not) is not listed. Tokens are never returned.',
      protect: true,
    },
  })
  .input(listOwnKeysInput)
  .output(apiKeyListSchema)
  .query(({ ctx, input }) => {
    const owner = ownerOf(ctx.principal);
    const scope = `apikeys:${'userId' in owner ? owner.userId : owner.serviceAccountId}`;
    return paginate(input, scope, (after, take) => findOwnKeys(ctx.db, ctx.principal, after, take), (k) => presentApiKey(k.key, k.scopes));
  });
