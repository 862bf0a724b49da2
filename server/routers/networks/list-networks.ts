import { paginate } from '../../http/pagination';
import { listNetworks as findNetworks } from '../../services/networks/list-networks';
import { authedProcedure } from '../../trpc';
import { listNetworksInput, listNetworksOutput } from './list-networks.types';
import { presentNetwork } from './network.types';

export const listNetworks = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks',
      tags: ['networks'],
      summary: 'List the networks this key can see',
      description: 'All networks for a super_user key; otherwise the networks in the key’s scopes. Ordered by id.',
      protect: true,
    },
  })
  .input(listNetworksInput)
  .output(listNetworksOutput)
  .query(({ ctx, input }) =>
    paginate(input, 'networks', (after, take) => findNetworks(ctx.db, ctx.principal, after, take), presentNetwork),
  );
