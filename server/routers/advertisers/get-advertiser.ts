import { found } from '@/server/errors';
import { findAdvertiser } from '@/server/services/advertisers/find-advertisers';
import { networkProcedure } from '@/server/trpc';
import { advertiserSchema, presentAdvertiser } from './advertiser.types';
import { getAdvertiserInput } from './get-advertiser.types';

export const getAdvertiserRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No live advertiser with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/advertisers/{advertiserId}',
      tags: ['advertisers'],
      summary: 'Get an advertiser',
      description: 'A deleted advertiser answers 404.',
      protect: true,
    },
  })
  .input(getAdvertiserInput)
  .output(advertiserSchema)
  .query(async ({ ctx, input }) =>
    presentAdvertiser(found(await findAdvertiser({ db: ctx.db, networkId: input.networkId, advertiserId: input.advertiserId }), 'Advertiser')),
  );
