import { z } from 'zod';
import { flightParams } from '@/server/routers/flights/flight.types';
import { idField } from '@/server/routers/shared.types';
import { offerAmountField, offerExpiresAtField, offerImpressionGoalField } from './create-offer.types';
import { offerSchema } from './offer.types';

/** The most podcasts one request offers a flight to (server/services/offers/create-flight-offers.ts). */
export const MAX_PODCASTS_PER_BULK_OFFER = 200;

export const createFlightOffersInput = z.strictObject({
  ...flightParams,
  podcast_ids: z
    .array(z.string({ error: 'podcast_ids must be podcast ids.' }).min(1, 'podcast_ids must be podcast ids.'), {
      error: 'podcast_ids must be an array of podcast ids.',
    })
    .min(1, 'podcast_ids must name at least one podcast.')
    .max(MAX_PODCASTS_PER_BULK_OFFER, `podcast_ids may name at most ${MAX_PODCASTS_PER_BULK_OFFER} podcasts; send more requests for more.`)
    .refine((ids) => new Set(ids).size === ids.length, 'podcast_ids must not name a podcast twice.')
    .meta({ description: `The podcasts to offer the flight to, 1–${MAX_PODCASTS_PER_BULK_OFFER}, each once; the answer keeps their order.` }),
  amount_cents: offerAmountField.optional(),
  impression_goal: offerImpressionGoalField.meta({ description: 'Each podcast’s share of the flight’s impression goal (not above it).' }).optional(),
  expires_at: offerExpiresAtField.optional(),
});

/** The error envelope, as the API answers a refusal (the document's Problem). */
const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });

const podcastId = idField('pod').meta({ description: 'A podcast of the request, in its order.' });

export const flightOfferCreatedSchema = z
  .object({ podcast_id: podcastId, status: z.literal(201), offer: offerSchema })
  .meta({ id: 'FlightOfferCreated', description: 'The offer made to this podcast.' });

export const flightOfferRefusedSchema = z
  .object({
    podcast_id: podcastId,
    status: z.number().int().meta({ description: 'What the single POST /offers would have answered for this podcast (400, 409…).' }),
    error: problemSchema,
  })
  .meta({ id: 'FlightOfferRefused', description: 'Why no offer was made to this podcast: the error envelope of that refusal.' });

export const createFlightOffersOutput = z
  .object({
    items: z
      .array(z.union([flightOfferCreatedSchema, flightOfferRefusedSchema]))
      .meta({ description: 'One per podcast of the request, in its order.' }),
  })
  .meta({ id: 'FlightOfferResults' });
