import { createNetwork as insertNetwork } from '../../services/networks/create-network';
import { setEtag } from '../../http/locking';
import { superUserProcedure } from '../../trpc';
import { createNetworkInput } from './create-network.types';
import { networkSchema, presentNetwork } from './network.types';

export const createNetwork = superUserProcedure
  .meta({
    openapi: { method: 'POST', path: '/networks', tags: ['networks'], summary: 'Create a network (super_user)', protect: true, successDescription: 'Created' },
  })
  .input(createNetworkInput)
  .output(networkSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => insertNetwork(tx, input));
    ctx.http.status = 201;
    setEtag(ctx.http, row.version);
    return presentNetwork(row);
  });
