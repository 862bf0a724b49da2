import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam, sinceNotAfterUntil, timeRange } from '@/server/routers/shared.types';
import { creativeSchema, creativeStatusSchema } from './creative.types';

export const listCreativesInput = z
  .strictObject({
    ...networkParam,
    ...listParams,
    status: creativeStatusSchema.optional().meta({ description: 'Only creatives in this state (pending_approval: the review queue).' }),
    offer_id: z.string().min(1).optional().meta({ description: 'Only the creatives (every revision) of this offer.' }),
    campaign_id: z.string().min(1).optional().meta({ description: 'Only the creatives of this campaign.' }),
    podcast_id: z.string().min(1).optional().meta({ description: 'Only the creatives of this podcast.' }),
    ...timeRange('creatives made'),
  })
  .refine(...sinceNotAfterUntil);
export const creativeListSchema = pageOf(creativeSchema).meta({ id: 'CreativeList' });
