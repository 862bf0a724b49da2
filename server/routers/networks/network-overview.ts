import { networkOverview } from '@/server/services/networks/overview';
import { networkProcedure } from '@/server/trpc';
import { networkOverviewInput, networkOverviewOutput } from './network-overview.types';

export const networkOverviewRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/overview',
      tags: ['networks'],
      summary: 'Counts of a network’s advertising',
      description:
        'Advertisers, campaigns by status, podcasts (and how many opted in), offers and creatives by status — for a dashboard, without paging through the lists.',
      protect: true,
    },
  })
  .input(networkOverviewInput)
  .output(networkOverviewOutput)
  .query(({ ctx, input }) => networkOverview({ db: ctx.db, networkId: input.networkId }));
