import { found } from '@/server/errors';
import { findCreative } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { creativeSchema, presentCreative } from './creative.types';
import { getCreativeInput } from './get-creative.types';

export const getCreativeRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No creative with this id in the network.' },
    openapi: { method: 'GET', path: '/networks/{networkId}/creatives/{creativeId}', tags: ['creatives'], summary: 'Get a creative', protect: true },
  })
  .input(getCreativeInput)
  .output(creativeSchema)
  .query(async ({ ctx, input }) =>
    presentCreative(found(await findCreative({ db: ctx.db, networkId: input.networkId, id: input.creativeId }), 'Creative')),
  );
