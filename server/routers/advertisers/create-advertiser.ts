import { createAdvertiser } from '@/server/services/advertisers/create-advertiser';
import { networkProcedure } from '@/server/trpc';
import { advertiserSchema, presentAdvertiser } from './advertiser.types';
import { createAdvertiserInput } from './create-advertiser.types';

export const createAdvertiserRoute = networkProcedure('administrator')
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
      createAdvertiser({
        tx,
        networkId: input.networkId,
        fields: { name: input.name, website: input.website, contactEmail: input.contact_email, categories: input.categories },
      }),
    );
    ctx.http.status = 201;
    return presentAdvertiser(row);
  });
