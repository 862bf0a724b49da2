import { paginate } from '../../http/pagination';
import { listAdvertisers as findAdvertisers } from '../../services/advertisers/find-advertisers';
import { networkProcedure } from '../../trpc';
import { presentAdvertiser } from './advertiser.types';
import { listAdvertisersInput, listAdvertisersOutput } from './list-advertisers.types';

export const listAdvertisers = networkProcedure('read_only')
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
      (after, take) => findAdvertisers(ctx.db, input.networkId, after, take),
      presentAdvertiser,
    ),
  );
