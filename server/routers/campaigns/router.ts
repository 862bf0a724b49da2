import { router } from '../../trpc';
import { createCampaign } from './create-campaign';
import { getCampaign } from './get-campaign';
import { listCampaigns } from './list-campaigns';
import { updateCampaign } from './update-campaign';

export const campaignsRouter = router({
  list: listCampaigns,
  create: createCampaign,
  get: getCampaign,
  update: updateCampaign,
});
