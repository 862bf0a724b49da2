import { router } from '@/server/trpc';
import { approveCreativeRoute } from './approve-creative';
import { getCreativeRoute } from './get-creative';
import { getCreativeAudioRoute } from './get-creative-audio';
import { listCreativeRevisionsRoute } from './list-creative-revisions';
import { listCreativesRoute } from './list-creatives';
import { previewCampaignRoute } from './preview-campaign';
import { requestCreativeChangesRoute } from './request-creative-changes';
import { retryCreativeRoute } from './retry-creative';

export const creativesRouter = router({
  list: listCreativesRoute,
  get: getCreativeRoute,
  audio: getCreativeAudioRoute,
  revisions: listCreativeRevisionsRoute,
  approve: approveCreativeRoute,
  requestChanges: requestCreativeChangesRoute,
  retry: retryCreativeRoute,
  previewCampaign: previewCampaignRoute,
});
