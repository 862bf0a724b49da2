import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam, sinceNotAfterUntil, timeRange } from '@/server/routers/shared.types';
import { campaignSchema, campaignStatusSchema } from './campaign.types';

export const listCampaignsInput = z
  .strictObject({
    ...networkParam,
    ...listParams,
    status: campaignStatusSchema.optional().meta({ description: 'Only campaigns in this state.' }),
    advertiser_id: z.string().min(1).optional().meta({ description: 'Only campaigns of this advertiser.' }),
    ...timeRange('campaigns created'),
  })
  .refine(...sinceNotAfterUntil);

export const listCampaignsOutput = pageOf(campaignSchema).meta({ id: 'CampaignList' });
