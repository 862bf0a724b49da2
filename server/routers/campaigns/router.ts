import { router } from '@/server/trpc';
import { createCampaignRoute } from './create-campaign';
import { getCampaignRoute } from './get-campaign';
import { listCampaignsRoute } from './list-campaigns';
import { updateCampaignRoute } from './update-campaign';

export const campaignsRouter = router({
  list: listCampaignsRoute,
  create: createCampaignRoute,
  get: getCampaignRoute,
  update: updateCampaignRoute,
});
