import { notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { findAdvertiser } from '../../services/advertisers/find-advertisers';
import { networkProcedure } from '../../trpc';
import { advertiserSchema, presentAdvertiser } from './advertiser.types';
import { getAdvertiserInput } from './get-advertiser.types';

export const getAdvertiser = networkProcedure('read_only')
  .meta({
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
  .query(async ({ ctx, input }) => {
    const row = await findAdvertiser(ctx.db, input.networkId, input.advertiserId);
    if (!row) throw notFound('Advertiser');
    setEtag(ctx.http, row.version);
    return presentAdvertiser(row);
  });
