import { z } from 'zod';
import { networkParam } from '@/server/routers/shared.types';

/** With a flight: this podcast's amount in place of the flight's, in the flight's currency. */
export const offerAmountField = z
  .number({ error: 'amount_cents must be a whole number of minor units (cents), 0 or more.' })
  .int('amount_cents must be a whole number of minor units (cents).')
  .min(0, 'amount_cents must be 0 or more.')
  .max(Number.MAX_SAFE_INTEGER, 'amount_cents is too large.')
  .meta({ description: 'Only with a flight: this podcast’s amount in place of the flight’s `pricing.amount_cents`, in the flight’s currency.' });

/** With a flight: this podcast's share of the flight's impression goal. */
export const offerImpressionGoalField = z
  .number({ error: 'impression_goal must be a whole number of impressions, 1 or more.' })
  .int('impression_goal must be a whole number of impressions.')
  .min(1, 'impression_goal must be 1 or more.')
  .max(Number.MAX_SAFE_INTEGER, 'impression_goal is too large.')
  .meta({ description: 'Only with a flight: this podcast’s share of the flight’s impression goal (not above it).' });

export const offerExpiresAtField = z.iso
  .datetime({ offset: true })
  .meta({ description: 'After this instant the offer is expired and cannot be accepted.' });

export const createOfferInput = z.strictObject({
  ...networkParam,
  campaign_id: z
    .string({ error: 'campaign_id is required.' })
    .min(1)
    .optional()
    .meta({ description: 'Required without `flight_id`; with it, leave it out or send the flight’s campaign.' }),
  podcast_id: z.string({ error: 'podcast_id is required.' }).min(1),
  flight_id: z.string().min(1).optional().meta({
    description:
      'Offer a flight: the offer’s `terms` are copied from it, and its price is the flight’s (`price_cents` and `currency` are then refused).',
  }),
  price_cents: z.number().int().min(0).optional().meta({ description: 'Without a flight: the price, with `currency`.' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD.')
    .optional(),
  amount_cents: offerAmountField.optional(),
  impression_goal: offerImpressionGoalField.optional(),
  expires_at: offerExpiresAtField.optional(),
});
