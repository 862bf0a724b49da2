import { expectedVersion } from '@/server/http/locking';
import { updateNetwork } from '@/server/services/networks/update-network';
import { networkProcedure } from '@/server/trpc';
import { networkSchema, presentNetwork } from './network.types';
import { updateNetworkInput } from './update-network.types';

export const updateNetworkRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No network with this id.', conflict: 'The version you sent (If-Match or body) is stale, or another write came first.' },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}',
      tags: ['networks'],
      summary: 'Update a network',
      description: 'Optimistically locked: send If-Match with the ETag you read, or `version`. A stale version answers 409.',
      protect: true,
    },
  })
  .input(updateNetworkInput)
  .output(networkSchema)
  .mutation(async ({ ctx, input: { networkId, version, name, max_key_lifetime_days: maxKeyLifetimeDays } }) => {
    const expected = expectedVersion(ctx.header('if-match'), version);
    const changes = { ...(name !== undefined && { name }), ...(maxKeyLifetimeDays !== undefined && { maxKeyLifetimeDays }) };
    const row = await ctx.db.transaction((tx) => updateNetwork({ tx, id: networkId, changes, expected, actorKeyId: ctx.principal.keyId }));
    return presentNetwork(row);
  });
