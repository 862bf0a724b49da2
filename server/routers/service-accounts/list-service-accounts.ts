import { paginate } from '@/server/http/pagination';
import { listServiceAccounts } from '@/server/services/service-accounts/find-service-account';
import { networkProcedure } from '@/server/trpc';
import { listServiceAccountsInput, listServiceAccountsOutput } from './list-service-accounts.types';
import { presentServiceAccount } from './service-account.types';

export const listServiceAccountsRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/service-accounts',
      tags: ['service accounts'],
      summary: 'List the network’s service accounts',
      description: 'Active accounts, ordered by id; `status=deleted` lists the deleted ones instead.',
      protect: true,
    },
  })
  .input(listServiceAccountsInput)
  .output(listServiceAccountsOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `service-accounts:${input.networkId}:${input.status}`,
      (after, take) => listServiceAccounts({ db: ctx.db, networkId: input.networkId, status: input.status, afterId: after, take }),
      presentServiceAccount,
    ),
  );
