import { setEtag } from '../../http/locking';
import { retryCreative as retry } from '../../services/creatives/retry-creative';
import { networkProcedure } from '../../trpc';
import { creativeInput, creativeSchema, presentCreative } from './creative.types';

export const retryCreative = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/creatives/{creativeId}/retry',
      tags: ['creatives'],
      summary: 'Retry a failed creative',
      description: 'Only from failed (else 409): back to generating, with a new synthesis job.',
      protect: true,
    },
  })
  .input(creativeInput)
  .output(creativeSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => retry(tx, input.networkId, input.creativeId));
    setEtag(ctx.http, row.version);
    return presentCreative(row);
  });
