import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';

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
