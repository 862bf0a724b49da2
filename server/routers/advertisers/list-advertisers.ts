import { paginate } from '@/server/http/pagination';
import { listAdvertisers } from '@/server/services/advertisers/find-advertisers';
import { networkProcedure } from '@/server/trpc';
import { presentAdvertiser } from './advertiser.types';
import { listAdvertisersInput, listAdvertisersOutput } from './list-advertisers.types';

export const listAdvertisersRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/advertisers',
      tags: ['advertisers'],
      summary: 'List the network’s advertisers',
      description: 'Deleted advertisers are not listed. Ordered by id.',
      protect: true,
    },
  })
  .input(listAdvertisersInput)
  .output(listAdvertisersOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `advertisers:${input.networkId}`,
      (after, take) => listAdvertisers({ db: ctx.db, networkId: input.networkId, afterId: after, take }),
      presentAdvertiser,
    ),
  );
