import { z } from 'zod';
import { listParams, pageOf } from '../../http/page';
import { maxCharacters, networkParam } from '../shared.types';
import { offerIdParam, offerSchema, offerStatusSchema } from './offer.types';

export const listOffersInput = z.strictObject({
  ...networkParam,
  ...listParams,
  status: offerStatusSchema.optional(),
  campaign_id: z.string().min(1).optional(),
  podcast_id: z.string().min(1).optional(),
});
export const offerListSchema = pageOf(offerSchema).meta({ id: 'OfferList' });

export const createOfferInput = z.strictObject({
  ...networkParam,
  campaign_id: z.string({ error: 'campaign_id is required.' }).min(1),
  podcast_id: z.string({ error: 'podcast_id is required.' }).min(1),
  price_cents: z.number().int().min(0).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD.')
    .optional(),
  expires_at: z.iso.datetime({ offset: true }).optional().meta({ description: 'After this instant the offer is expired and cannot be accepted.' }),
});

export const offerInput = z.strictObject({ ...networkParam, ...offerIdParam });
export const rejectOfferInput = z.strictObject({
  ...networkParam,
  ...offerIdParam,
  reason: z.string().trim().check(maxCharacters(500, 'reason must be at most 500 characters.')).optional(),
});
