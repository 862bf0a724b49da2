import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { networkParam, sinceNotAfterUntil, timeRange } from '@/server/routers/shared.types';
import { offerSchema, offerStatusSchema } from './offer.types';

export const listOffersInput = z
  .strictObject({
    ...networkParam,
    ...listParams,
    status: offerStatusSchema.optional(),
    campaign_id: z.string().min(1).optional(),
    podcast_id: z.string().min(1).optional(),
    flight_id: z.string().min(1).optional(),
    ...timeRange('offers made'),
  })
  .refine(...sinceNotAfterUntil);
export const offerListSchema = pageOf(offerSchema).meta({ id: 'OfferList' });
