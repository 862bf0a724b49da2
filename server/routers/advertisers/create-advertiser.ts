import { setEtag } from '../../http/locking';
import { createAdvertiser as insertAdvertiser } from '../../services/advertisers/create-advertiser';
import { networkProcedure } from '../../trpc';
import { advertiserSchema, presentAdvertiser } from './advertiser.types';
import { createAdvertiserInput } from './create-advertiser.types';

export const createAdvertiser = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/advertisers',
      tags: ['advertisers'],
      summary: 'Create an advertiser',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createAdvertiserInput)
  .output(advertiserSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      insertAdvertiser(tx, input.networkId, { name: input.name, website: input.website, contactEmail: input.contact_email }),
    );
    ctx.http.status = 201;
    setEtag(ctx.http, row.version);
    return presentAdvertiser(row);
  });
