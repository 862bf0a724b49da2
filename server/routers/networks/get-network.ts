import { found } from '@/server/errors';
import { findNetwork } from '@/server/services/networks/find-network';
import { networkProcedure } from '@/server/trpc';
import { getNetworkInput } from './get-network.types';
import { networkSchema, presentNetwork } from './network.types';

export const getNetworkRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No network with this id.' },
    openapi: { method: 'GET', path: '/networks/{networkId}', tags: ['networks'], summary: 'Get a network', protect: true },
  })
  .input(getNetworkInput)
  .output(networkSchema)
  .query(async ({ ctx, input }) => presentNetwork(found(await findNetwork({ db: ctx.db, id: input.networkId }), 'Network')));
