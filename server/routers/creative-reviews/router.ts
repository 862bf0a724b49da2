import { router } from '@/server/trpc';
import { approveCurrentCreativeRoute } from './approve-current-creative';
import { getCurrentCreativeReviewRoute } from './get-current-creative-review';
import { getCurrentCreativeReviewAudioRoute } from './get-current-creative-review-audio';
import { requestCurrentCreativeChangesRoute } from './request-current-creative-changes';

/** The host's review link (no API key): one revision of a creative, opened by its token. */
export const creativeReviewsRouter = router({
  current: getCurrentCreativeReviewRoute,
  audio: getCurrentCreativeReviewAudioRoute,
  approve: approveCurrentCreativeRoute,
  requestChanges: requestCurrentCreativeChangesRoute,
});
