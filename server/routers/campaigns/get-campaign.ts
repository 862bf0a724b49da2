import { found } from '@/server/errors';
import { findCampaign } from '@/server/services/campaigns/find-campaigns';
import { networkProcedure } from '@/server/trpc';
import { campaignSchema, presentCampaign } from './campaign.types';
import { getCampaignInput } from './get-campaign.types';

export const getCampaignRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No campaign with this id in the network.' },
    openapi: { method: 'GET', path: '/networks/{networkId}/campaigns/{campaignId}', tags: ['campaigns'], summary: 'Get a campaign', protect: true },
  })
  .input(getCampaignInput)
  .output(campaignSchema)
  .query(async ({ ctx, input }) =>
    presentCampaign(found(await findCampaign({ db: ctx.db, networkId: input.networkId, campaignId: input.campaignId }), 'Campaign')),
  );
