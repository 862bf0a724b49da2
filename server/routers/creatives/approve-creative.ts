import { found } from '@/server/errors';
import { approveCreative } from '@/server/services/creatives/decide-creative-review';
import { findCreative } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { approveCreativeInput } from './approve-creative.types';
import { creativeSchema, presentCreative } from './creative.types';

export const approveCreativeRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No creative with this id in the network.',
      conflict: 'The revision is not pending approval (also when another decision on it won while this ran): the detail names its state.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/creatives/{creativeId}/approve',
      tags: ['creatives'],
      summary: 'Approve a creative on the host’s behalf',
      description:
        'pending_approval → approved, recorded as the host’s review is, but `review.reviewed_by: administrator` and the key in the audit log. ' +
        'The audio is then offered for delivery (`audio_url`). Sends `creative.approved`. Any other state → 409 naming it: of two ' +
        'decisions racing on one revision (the host’s included), exactly one wins.',
      protect: true,
    },
  })
  .input(approveCreativeInput)
  .output(creativeSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction(async (tx) => {
      const creative = found(await findCreative({ db: tx, networkId: input.networkId, id: input.creativeId }), 'Creative');
      return approveCreative({ tx, creative, by: { host: false, actorKeyId: ctx.principal.keyId } });
    });
    return presentCreative(row);
  });
