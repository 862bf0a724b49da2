import { router } from '@/server/trpc';
import { getCreativeRoute } from './get-creative';
import { getCreativeAudioRoute } from './get-creative-audio';
import { listCreativesRoute } from './list-creatives';
import { previewCampaignRoute } from './preview-campaign';
import { retryCreativeRoute } from './retry-creative';

export const creativesRouter = router({
  list: listCreativesRoute,
  get: getCreativeRoute,
  audio: getCreativeAudioRoute,
  retry: retryCreativeRoute,
  previewCampaign: previewCampaignRoute,
});
