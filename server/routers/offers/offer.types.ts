import { z } from 'zod';
import { OFFER_STATUSES } from '@/domain/statuses';
import { offerStatus } from '@/server/services/offers/offer-status';
import { trackingUrl } from '@/server/services/tracking/tracking-url';
import type { OfferRow } from '@/server/services/offers/find-offers';
import { idField, isoOrNull, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';
import { placementSchema, pricingModelSchema } from '@/server/routers/flights/flight.types';

export const offerStatusSchema = z.enum(OFFER_STATUSES);

/** What an offer on a flight carries: the flight's terms when the offer was made, with this podcast's amount and goal. */
export const offerTermsSchema = z
  .object({
    placement: placementSchema,
    starts_at: timestamp.meta({ description: 'The flight’s start.' }),
    ends_at: timestamp.meta({ description: 'The flight’s end.' }),
    max_duration_seconds: z.number().int().meta({ description: 'The longest ad, in seconds.' }),
    pricing: z
      .object({
        model: pricingModelSchema,
        amount_cents: z
          .number()
          .int()
          .meta({ description: 'The flight’s amount, or this offer’s `amount_cents`: per 1,000 impressions for cpm, the whole fee for flat.' }),
        currency: z.string().meta({ description: 'The flight’s currency (ISO 4217).' }),
      })
      .meta({ id: 'OfferPricing' }),
    impression_goal: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'This podcast’s share of the flight’s impression goal, when the offer gave one.' }),
  })
  .meta({
    id: 'OfferTerms',
    description:
      'Copied from the flight when the offer was made and never changed by later edits of the flight (a change of its terms expires the open offers instead).',
  });

export const offerSchema = z
  .object({
    id: idField('off'),
    network_id: idField('net'),
    campaign_id: idField('cmp'),
    podcast_id: idField('pod'),
    flight_id: idField('flt').nullable().meta({ description: 'The flight the offer was made on; null for an offer of a campaign alone.' }),
    terms: offerTermsSchema.nullable(),
    status: offerStatusSchema.meta({ description: 'open → accepted | rejected | expired' }),
    price_cents: z.number().int().nullable().meta({ description: 'On a flight: `terms.pricing.amount_cents`.' }),
    currency: z.string().nullable().meta({ description: 'On a flight: `terms.pricing.currency`.' }),
    expires_at: timestamp.nullable(),
    reject_reason: z.string().nullable(),
    creative_id: z.string().nullable().meta({ description: 'Set when accepted: the creative being generated.' }),
    decided_at: timestamp.nullable(),
    tracking_url: z.string().nullable().meta({
      description:
        'Set when accepted: what the host’s ad server calls (GET or HEAD) each time it serves the ad, replacing `{episode_id}`, `{timestamp}` and `{request_id}` with its own macros (a placeholder left as it is reads as absent). No key is needed and it reveals nothing about the network; hits are counted by the rules of docs/measurement.md.',
      example: 'https://ads.example.com/t/trk_3f9a1c0b7d2e4a6f8b1c3d5e7f9a0b2c?episode={episode_id}&ts={timestamp}&rid={request_id}',
    }),
    ...versionedFields,
  })
  .meta({ id: 'Offer' });

export function presentOffer(row: OfferRow): z.infer<typeof offerSchema> {
  return {
    id: row.id,
    network_id: row.networkId,
    campaign_id: row.campaignId,
    podcast_id: row.podcastId,
    flight_id: row.flightId,
    terms: row.terms,
    status: offerStatus(row),
    price_cents: row.priceCents,
    currency: row.currency,
    expires_at: isoOrNull(row.expiresAt),
    reject_reason: row.rejectReason,
    creative_id: row.creativeId,
    decided_at: isoOrNull(row.decidedAt),
    tracking_url: trackingUrl(row.trackingToken),
    ...versionedOf(row),
  };
}

export const offerIdParam = { offerId: z.string().min(1).meta({ description: 'Offer id (off_…).' }) };
