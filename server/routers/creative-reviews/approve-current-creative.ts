import { approveCreative } from '@/server/services/creatives/decide-creative-review';
import { creativeReviewSchema, presentReview } from '@/server/routers/creatives/creative.types';
import { creativeReviewLinkProcedure } from '@/server/trpc';
import { approveCurrentCreativeInput } from './decide-current-creative-review.types';

export const approveCurrentCreativeRoute = creativeReviewLinkProcedure
  .meta({
    errors: {
      'not-found': 'The link ended while this ran (withdrawn with the consent, or past its end).',
      conflict: 'The revision is not pending approval (decided already — also by a decision racing this one — or withdrawn).',
    },
    openapi: {
      method: 'POST',
      path: '/creative-reviews/current/approve',
      tags: ['creative review'],
      summary: 'Approve the revision (the host, from the review link)',
      description:
        'The link’s token as the bearer. pending_approval → approved (`reviewed_by: host`): the audio is then offered for delivery. Sends ' +
        '`creative.approved`; answers with the review. Any other state → 409: of two decisions racing on one revision (an administrator’s ' +
        'included) exactly one wins.',
      protect: true,
    },
  })
  .input(approveCurrentCreativeInput)
  .output(creativeReviewSchema)
  .mutation(async ({ ctx }) => {
    const approved = await ctx.db.transaction((tx) => approveCreative({ tx, creative: ctx.creativeReview!.row, by: { host: true } }));
    return presentReview(approved)!;
  });
