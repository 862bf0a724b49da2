import { paginate } from '@/server/http/pagination';
import { listNetworks } from '@/server/services/networks/list-networks';
import { authedProcedure } from '@/server/trpc';
import { listNetworksInput, listNetworksOutput } from './list-networks.types';
import { presentNetwork } from './network.types';

export const listNetworksRoute = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks',
      tags: ['networks'],
      summary: 'List the networks this key can see',
      description:
        'All networks for a super_user key; otherwise the networks in the key’s scopes. Ordered by id. `q` keeps those whose name contains it (any case) or whose id it is; it combines with the cursor.',
      protect: true,
    },
  })
  .input(listNetworksInput)
  .output(listNetworksOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      input.q === undefined ? 'networks' : `networks:q=${input.q}`,
      (after, take) => listNetworks({ db: ctx.db, principal: ctx.principal, afterId: after, limit: take, q: input.q }),
      presentNetwork,
    ),
  );
