import { router } from '../../trpc';
import { previewCampaign } from './preview-campaign';
import { getCreative, getCreativeAudio, listCreatives } from './read-creatives';
import { retryCreative } from './retry-creative';

export const creativesRouter = router({
  list: listCreatives,
  get: getCreative,
  audio: getCreativeAudio,
  retry: retryCreative,
  previewCampaign,
});
