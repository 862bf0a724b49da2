import { setEtag } from '../../http/locking';
import { notFound } from '../../errors';
import { findNetwork } from '../../services/networks/find-network';
import { networkProcedure } from '../../trpc';
import { getNetworkInput } from './get-network.types';
import { networkSchema, presentNetwork } from './network.types';

export const getNetwork = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}', tags: ['networks'], summary: 'Get a network', protect: true } })
  .input(getNetworkInput)
  .output(networkSchema)
  .query(async ({ ctx, input }) => {
    const row = await findNetwork(ctx.db, input.networkId);
    if (!row) throw notFound('Network');
    setEtag(ctx.http, row.version);
    return presentNetwork(row);
  });
