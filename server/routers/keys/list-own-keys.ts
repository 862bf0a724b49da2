import { paginate } from '@/server/http/pagination';
import { listOwnKeys } from '@/server/services/keys/find-keys';
import { ownerOf } from '@/server/services/keys/owner';
import { authedProcedure } from '@/server/trpc';
import { apiKeyListSchema, presentApiKey } from './api-key.types';
import { listOwnKeysInput } from './list-own-keys.types';

export const listOwnKeysRoute = authedProcedure
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
    return paginate(
      input,
      scope,
      (after, take) => listOwnKeys({ db: ctx.db, caller: ctx.principal, afterId: after, take }),
      (k) => presentApiKey(k.key, k.scopes),
    );
  });
