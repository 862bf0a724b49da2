import { badRequest } from '@/server/errors';
import { createNetwork, newNetworkMode } from '@/server/services/networks/create-network';
import { fillWithSampleData } from '@/server/services/networks/sample-data';
import { superUserProcedure } from '@/server/trpc';
import { createNetworkInput } from './create-network.types';
import { networkSchema, presentNetwork } from './network.types';

export const createNetworkRoute = superUserProcedure
  .meta({
    errors: {
      forbidden: 'A test (`sk_test_`) super_user key asked for a live network.',
      // The sample data is made through the same services, and so the same rules, as the API.
      conflict: 'With `sample_data`: a sample could not be made under the rules of its endpoint; nothing was created.',
      'not-found': 'With `sample_data`: a sample could not be made under the rules of its endpoint; nothing was created.',
      'brand-safety': 'With `sample_data`: a sample could not be made under the rules of its endpoint; nothing was created.',
    },
    openapi: {
      method: 'POST',
      path: '/networks',
      tags: ['networks'],
      summary: 'Create a network (super_user)',
      description: 'A live or test network (`mode`); a test network can start with sample data (`sample_data`), for a sandbox to try the product in.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createNetworkInput)
  .output(networkSchema)
  .mutation(async ({ ctx, input }) => {
    const mode = newNetworkMode(ctx.principal, input.mode);
    if (input.sample_data && mode !== 'test') {
      throw badRequest('Sample data goes only into a test network: send "mode": "test".', [{ path: 'sample_data', message: 'Test networks only.' }]);
    }
    const row = await ctx.db.transaction(async (tx) => {
      const network = await createNetwork({ tx, name: input.name, mode, maxKeyLifetimeDays: input.max_key_lifetime_days });
      if (input.sample_data) await fillWithSampleData({ tx, networkId: network.id });
      return network;
    });
    ctx.http.status = 201;
    return presentNetwork(row);
  });
