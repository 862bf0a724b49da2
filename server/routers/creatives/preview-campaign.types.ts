import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';

export const previewCampaignInput = z.strictObject({
  ...networkParam,
  campaignId: z.string().min(1),
  podcast_id: z.string({ error: 'podcast_id is required.' }).min(1),
});
