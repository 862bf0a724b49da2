import { requestCreativeChanges } from '@/server/services/creatives/decide-creative-review';
import { creativeReviewSchema, presentReview } from '@/server/routers/creatives/creative.types';
import { creativeReviewLinkProcedure } from '@/server/trpc';
import { requestCurrentCreativeChangesInput } from './decide-current-creative-review.types';

export const requestCurrentCreativeChangesRoute = creativeReviewLinkProcedure
  .meta({
    errors: {
      'bad-request': 'The script (the new one, or the one kept) lacks one of the campaign’s required lines: the detail names it.',
      'not-found': 'The link ended while this ran (withdrawn with the consent, or past its end).',
      conflict:
        'The revision is not pending approval (decided already — also by a decision racing this one — or withdrawn), or it is the last ' +
        'revision a creative may have (20).',
    },
    openapi: {
      method: 'POST',
      path: '/creative-reviews/current/request-changes',
      tags: ['creative review'],
      summary: 'Request changes to the revision (the host, from the review link)',
      description:
        'The link’s token as the bearer. pending_approval → changes_requested with the `comment` (`reviewed_by: host`); the next revision ' +
        'is made with the new `script` or the old one kept, and the host is emailed its own review link when its audio is ready. This ' +
        'link is then superseded: it answers 404 from now on, except to a retry of this request with its Idempotency-Key, which replays the ' +
        'answer. Sends `creative.changes_requested`; answers with the review. A script ' +
        'lacking one of the campaign’s required lines → 400 naming it; any state but pending_approval → 409.',
      protect: true,
    },
  })
  .input(requestCurrentCreativeChangesInput)
  .output(creativeReviewSchema)
  .mutation(async ({ ctx, input }) => {
    const { previous } = await ctx.db.transaction((tx) =>
      requestCreativeChanges({ tx, creative: ctx.creativeReview!.row, by: { host: true }, comment: input.comment, script: input.script }),
    );
    return presentReview(previous)!;
  });
