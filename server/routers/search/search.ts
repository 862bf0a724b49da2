import { searchNetwork } from '@/server/services/search/search-network';
import { networkProcedure } from '@/server/trpc';
import { searchInput, searchOutput } from './search.types';

export const searchRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/search',
      tags: ['search'],
      summary: 'Find objects of the network by name or id',
      description:
        'Campaigns, podcasts and advertisers whose name contains `q` (any case; podcasts by host name too) or whose id is `q`, best matches first, ' +
        'at most `limit` of each type. Administrators also find API keys (by name) and webhooks (by description or URL): what a key may list, it may find.',
      protect: true,
    },
  })
  .input(searchInput)
  .output(searchOutput)
  .query(async ({ ctx, input }) => ({
    items: await searchNetwork({
      db: ctx.db,
      networkId: input.networkId,
      q: input.q,
      take: input.limit,
      administrator: ctx.network.role === 'administrator',
    }),
  }));
