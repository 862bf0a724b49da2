import { paginate } from '../../http/pagination';
import { listServiceAccounts as findServiceAccounts } from '../../services/service-accounts/find-service-account';
import { networkProcedure } from '../../trpc';
import { listServiceAccountsInput, listServiceAccountsOutput } from './list-service-accounts.types';
import { presentServiceAccount } from './service-account.types';

export const listServiceAccounts = networkProcedure('read_only')
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
      (after, take) => findServiceAccounts(ctx.db, input.networkId, input.status, after, take),
      presentServiceAccount,
    ),
  );
