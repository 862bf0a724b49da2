import { notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { findCampaign } from '../../services/campaigns/find-campaigns';
import { networkProcedure } from '../../trpc';
import { campaignSchema, presentCampaign } from './campaign.types';
import { getCampaignInput } from './get-campaign.types';

export const getCampaign = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/campaigns/{campaignId}', tags: ['campaigns'], summary: 'Get a campaign', protect: true } })
  .input(getCampaignInput)
  .output(campaignSchema)
  .query(async ({ ctx, input }) => {
    const row = await findCampaign(ctx.db, input.networkId, input.campaignId);
    if (!row) throw notFound('Campaign');
    setEtag(ctx.http, row.version);
    return presentCampaign(row);
  });
