import { retryCreative } from '@/server/services/creatives/retry-creative';
import { networkProcedure } from '@/server/trpc';
import { creativeSchema, presentCreative } from './creative.types';
import { retryCreativeInput } from './retry-creative.types';

export const retryCreativeRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No creative with this id in the network.', conflict: 'The creative is not failed.' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/creatives/{creativeId}/retry',
      tags: ['creatives'],
      summary: 'Retry a failed creative',
      description: 'Only from failed (else 409): back to generating, with a new synthesis job.',
      protect: true,
    },
  })
  .input(retryCreativeInput)
  .output(creativeSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => retryCreative({ tx, networkId: input.networkId, id: input.creativeId }));
    return presentCreative(row);
  });
