import { found } from '@/server/errors';
import { findServiceAccount } from '@/server/services/service-accounts/find-service-account';
import { networkProcedure } from '@/server/trpc';
import { getServiceAccountInput } from './get-service-account.types';
import { presentServiceAccount, serviceAccountSchema } from './service-account.types';

export const getServiceAccountRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No service account with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/service-accounts/{serviceAccountId}',
      tags: ['service accounts'],
      summary: 'Get a service account',
      description: 'Deleted accounts stay readable, with `status: "deleted"`. Never shows a token.',
      protect: true,
    },
  })
  .input(getServiceAccountInput)
  .output(serviceAccountSchema)
  .query(async ({ ctx, input }) => {
    return presentServiceAccount(
      found(await findServiceAccount({ db: ctx.db, networkId: input.networkId, id: input.serviceAccountId }), 'Service account'),
    );
  });
