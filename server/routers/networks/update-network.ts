import { expectedVersion, setEtag } from '../../http/locking';
import { updateNetwork as writeNetwork } from '../../services/networks/update-network';
import { networkProcedure } from '../../trpc';
import { networkSchema, presentNetwork } from './network.types';
import { updateNetworkInput } from './update-network.types';

export const updateNetwork = networkProcedure('administrator')
  .meta({
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
  .mutation(async ({ ctx, input: { networkId, version, ...changes } }) => {
    const expected = expectedVersion(ctx.header('if-match'), version);
    const row = await ctx.db.transaction((tx) => writeNetwork(tx, networkId, changes, expected));
    setEtag(ctx.http, row.version);
    return presentNetwork(row);
  });
