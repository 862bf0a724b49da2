import { createNetwork } from '@/server/services/networks/create-network';
import { superUserProcedure } from '@/server/trpc';
import { createNetworkInput } from './create-network.types';
import { networkSchema, presentNetwork } from './network.types';

export const createNetworkRoute = superUserProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks',
      tags: ['networks'],
      summary: 'Create a network (super_user)',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createNetworkInput)
  .output(networkSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => createNetwork({ tx, name: input.name, maxKeyLifetimeDays: input.max_key_lifetime_days }));
    ctx.http.status = 201;
    return presentNetwork(row);
  });
