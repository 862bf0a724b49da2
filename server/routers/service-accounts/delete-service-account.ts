import { deleteServiceAccount } from '@/server/services/service-accounts/delete-service-account';
import { networkProcedure } from '@/server/trpc';
import { deleteServiceAccountInput } from './delete-service-account.types';
import { presentServiceAccount, serviceAccountSchema } from './service-account.types';

export const deleteServiceAccountRoute = networkProcedure('administrator')
  .meta({
    withdrawsCredentials: true,
    errors: { 'not-found': 'No service account with this id in the network.', conflict: 'The service account is already deleted.' },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/service-accounts/{serviceAccountId}',
      tags: ['service accounts'],
      summary: 'Delete a service account and revoke its keys',
      description:
        'Marks the account deleted and revokes all its keys in one transaction: they get 401 from the next request on. ' +
        'Answers 200 with the account (`status: "deleted"`). Deleting an already deleted account answers 409.',
      protect: true,
    },
  })
  .input(deleteServiceAccountInput)
  .output(serviceAccountSchema)
  .mutation(async ({ ctx, input }) => {
    const { account } = await ctx.db.transaction((tx) =>
      deleteServiceAccount({ tx, principal: ctx.principal, networkId: input.networkId, id: input.serviceAccountId }),
    );
    return presentServiceAccount(account);
  });
