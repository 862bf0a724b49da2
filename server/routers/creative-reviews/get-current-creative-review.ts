import { readReviewLink } from '@/server/services/creatives/review-view';
import { creativeReviewLinkProcedure } from '@/server/trpc';
import { creativeReviewLinkViewSchema, getCurrentCreativeReviewInput, presentCreativeReviewLinkView } from './get-current-creative-review.types';

export const getCurrentCreativeReviewRoute = creativeReviewLinkProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/creative-reviews/current',
      tags: ['creative review'],
      summary: 'Read the creative revision a review link is for',
      description:
        'With the link’s token as the bearer (`Authorization: Bearer crl_…`), what the host’s review page shows: the revision (script, ' +
        'length, the decision on it), the campaign’s talking points and required lines, who made it, and the revisions before it. No API ' +
        'key: the token opens this one revision until the link’s end (14 days) or until a later revision replaces it; any other bearer, ' +
        'or none, answers 404. A decided revision still reads.',
      protect: true,
    },
  })
  .input(getCurrentCreativeReviewInput)
  .output(creativeReviewLinkViewSchema)
  .query(async ({ ctx }) => presentCreativeReviewLinkView(await readReviewLink({ db: ctx.db, creative: ctx.creativeReview!.row })));
