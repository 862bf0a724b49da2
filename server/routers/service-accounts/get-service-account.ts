import { notFound } from '../../errors';
import { findServiceAccount } from '../../services/service-accounts/find-service-account';
import { networkProcedure } from '../../trpc';
import { getServiceAccountInput } from './get-service-account.types';
import { presentServiceAccount, serviceAccountSchema } from './service-account.types';

export const getServiceAccount = networkProcedure('read_only')
  .meta({
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
    const row = await findServiceAccount(ctx.db, input.networkId, input.serviceAccountId);
    if (!row) throw notFound('Service account');
    return presentServiceAccount(row);
  });
