import { found } from '@/server/errors';
import { requestCreativeChanges } from '@/server/services/creatives/decide-creative-review';
import { findCreative } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { creativeSchema, presentCreative } from './creative.types';
import { requestCreativeChangesInput } from './request-creative-changes.types';

export const requestCreativeChangesRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'bad-request': 'The script (the new one, or the one kept) lacks one of the campaign’s required lines: the detail names it.',
      'not-found': 'No creative with this id in the network.',
      conflict:
        'The revision is not pending approval (also when another decision on it won while this ran), or it is the last revision a creative ' +
        'may have (20).',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/creatives/{creativeId}/request-changes',
      tags: ['creatives'],
      summary: 'Request changes to a creative on the host’s behalf',
      description:
        'pending_approval → changes_requested, with the comment recorded (`review.reviewed_by: administrator`, the key in the audit log), and ' +
        'answers 201 with the **next revision**: a new creative of the same offer (`revision` n + 1, `previous_revision_id` this one) with ' +
        'the new `script` or the old one kept, generating under the host’s consent (or awaiting one); the offer’s `creative_id` points to it. ' +
        'Sends `creative.changes_requested`. A creative has at most 20 revisions (the 21st → 409). Any state but pending_approval → 409.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(requestCreativeChangesInput)
  .output(creativeSchema)
  .mutation(async ({ ctx, input }) => {
    const { revision } = await ctx.db.transaction(async (tx) => {
      const creative = found(await findCreative({ db: tx, networkId: input.networkId, id: input.creativeId }), 'Creative');
      return requestCreativeChanges({
        tx,
        creative,
        by: { host: false, actorKeyId: ctx.principal.keyId },
        comment: input.comment,
        script: input.script,
      });
    });
    ctx.http.status = 201;
    return presentCreative(revision);
  });
