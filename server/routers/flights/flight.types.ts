import { z } from 'zod';
import { flightPacing, PACING_STATUSES, PACING_TOLERANCE } from '@/domain/pacing';
import { FLIGHT_PLACEMENTS, FLIGHT_STATUSES, PRICING_MODELS } from '@/domain/statuses';
import { currencyField, dateTimeField } from '@/server/routers/campaigns/campaign.types';
import { idField, isoOrNull, maxCharacters, networkParam, timestamp, versionedFields, versionedOf } from '@/server/routers/shared.types';
import type { FlightRow } from '@/server/services/flights/find-flights';
import { flightStatus } from '@/server/services/flights/flight-status';

/** Path parameters of a flight route. */
export const flightParams = {
  ...networkParam,
  flightId: z.string().min(1).meta({ description: 'Flight id (flt_…).' }),
};

export const flightStatusSchema = z.enum(FLIGHT_STATUSES).meta({
  id: 'FlightStatus',
  description: 'Derived from the dates when the flight is read: scheduled before starts_at, live from starts_at until ends_at, ended from then on.',
});

export const placementSchema = z
  .enum(FLIGHT_PLACEMENTS, { error: 'placement must be pre, mid or post.' })
  .meta({ id: 'FlightPlacement', description: 'Where in the episode the ad runs: pre-, mid- or post-roll.' });

export const pricingModelSchema = z
  .enum(PRICING_MODELS, { error: 'pricing.model must be cpm or flat.' })
  .meta({ id: 'PricingModel', description: 'cpm: amount_cents per 1,000 impressions (needs impression_goal); flat: a fixed fee.' });

export const MAX_DURATION_SECONDS = { min: 5, max: 180, default: 60 } as const;

export const startsAtField = dateTimeField('starts_at').meta({
  description: 'When the flight starts; not before the campaign starts, when it has a start.',
});
export const endsAtField = dateTimeField('ends_at').meta({
  description: 'When the flight ends: after starts_at, and not after the campaign ends, when it has an end.',
});

const durationMessage = `max_duration_seconds must be a whole number of seconds from ${MAX_DURATION_SECONDS.min} to ${MAX_DURATION_SECONDS.max}.`;
export const maxDurationField = z
  .number({ error: durationMessage })
  .int(durationMessage)
  .min(MAX_DURATION_SECONDS.min, durationMessage)
  .max(MAX_DURATION_SECONDS.max, durationMessage)
  .meta({ description: `The longest ad the flight takes, in seconds (${MAX_DURATION_SECONDS.min}–${MAX_DURATION_SECONDS.max}).` });

/** The price of a flight, always sent whole (model, amount and currency belong together). */
export const pricingField = z
  .strictObject(
    {
      model: pricingModelSchema,
      amount_cents: z
        .number({ error: 'pricing.amount_cents must be a whole number of minor units (cents), 0 or more.' })
        .int('pricing.amount_cents must be a whole number of minor units (cents).')
        .min(0, 'pricing.amount_cents must be 0 or more.')
        .max(Number.MAX_SAFE_INTEGER, 'pricing.amount_cents is too large.')
        .meta({ description: 'In minor units of `currency`: per 1,000 impressions for cpm, the whole fee for flat.' }),
      currency: currencyField.meta({ description: 'ISO 4217 code, e.g. USD.' }),
    },
    { error: 'pricing must be an object: { "model": "cpm" | "flat", "amount_cents": …, "currency": "USD" }.' },
  )
  .meta({ description: 'The price model, the amount in minor units and its currency.' });

export const impressionGoalField = z
  .number({ error: 'impression_goal must be a whole number of impressions, 1 or more.' })
  .int('impression_goal must be a whole number of impressions.')
  .min(1, 'impression_goal must be 1 or more.')
  .max(Number.MAX_SAFE_INTEGER, 'impression_goal is too large.')
  .meta({ description: 'Impressions the flight must deliver: required when pricing.model is cpm, optional for flat.' });

export const EXTERNAL_ORDER_ID_MAX_LENGTH = 200;
export const externalOrderIdField = z
  .string({ error: 'external_order_id must be a string.' })
  .trim()
  .min(1, 'external_order_id must not be blank (leave it out instead).')
  .check(maxCharacters(EXTERNAL_ORDER_ID_MAX_LENGTH, `external_order_id must be at most ${EXTERNAL_ORDER_ID_MAX_LENGTH} characters.`))
  .meta({ description: `The agency's or order-management system's own order number (at most ${EXTERNAL_ORDER_ID_MAX_LENGTH} characters).` });

export const pacingStatusSchema = z.enum(PACING_STATUSES).meta({
  id: 'PacingStatus',
  description:
    `goal_reached once delivered reaches the goal; otherwise against an even delivery of the goal over the flight's dates: ` +
    `behind below ${100 - PACING_TOLERANCE * 100} % of expected_to_date, ahead above ${100 + PACING_TOLERANCE * 100} %, else on_track (also before the flight starts).`,
});

/** A flight's pacing (docs/measurement.md, "Pacing"): always over its whole life so far, whatever range it is shown in. */
export const pacingSchema = z
  .object({
    delivered: z
      .number()
      .int()
      .meta({ description: 'Tracked impressions of the flight’s offers over its whole life so far (host reports are not added).' }),
    expected_to_date: z
      .number()
      .int()
      .meta({ description: 'The goal × the share of the flight’s time elapsed, rounded: 0 before it starts, the goal once it has ended.' }),
    ratio: z.number().nullable().meta({ description: 'delivered ÷ expected_to_date; null while nothing is expected yet.' }),
    status: pacingStatusSchema,
  })
  .meta({ id: 'FlightPacing', description: 'How far the flight’s tracked impressions are from an even delivery of its goal; null without a goal.' });

export type PacingOut = z.infer<typeof pacingSchema>;

/** A flight's pacing as the API shows it, or null when it has no goal. */
export function presentPacing(
  flight: { impressionGoal: number | null; startsAt: Date; endsAt: Date },
  delivered: number,
  now = Date.now(),
): PacingOut | null {
  if (flight.impressionGoal === null) return null;
  const pacing = flightPacing({ goal: flight.impressionGoal, startsAt: flight.startsAt, endsAt: flight.endsAt, delivered, now });
  return { delivered: pacing.delivered, expected_to_date: pacing.expectedToDate, ratio: pacing.ratio, status: pacing.status };
}

export const flightSchema = z
  .object({
    id: z.string().meta({ example: 'flt_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    campaign_id: idField('cmp').meta({ description: 'The campaign the flight belongs to.' }),
    name: z.string().meta({ description: 'A name the network gives the flight.' }),
    status: flightStatusSchema,
    starts_at: timestamp.meta({ description: 'When the flight starts.' }),
    ends_at: timestamp.meta({ description: 'When the flight ends.' }),
    placement: placementSchema,
    max_duration_seconds: z.number().int().meta({ description: 'The longest ad the flight takes, in seconds.' }),
    pricing: z
      .object({
        model: pricingModelSchema,
        amount_cents: z.number().int().meta({ description: 'In minor units of `currency`: per 1,000 impressions for cpm, the whole fee for flat.' }),
        currency: z.string().meta({ description: 'ISO 4217 code.' }),
      })
      .meta({ id: 'FlightPricing', description: 'The price model, the amount in minor units and its currency.' }),
    impression_goal: z.number().int().nullable().meta({ description: 'Impressions the flight must deliver; always set for cpm.' }),
    external_order_id: z.string().nullable().meta({ description: "The agency's or order-management system's own order number." }),
    delivered_impressions: z
      .number()
      .int()
      .meta({ description: 'Tracked impressions of the flight’s offers over its whole life so far (docs/measurement.md): what pacing counts.' }),
    pacing: pacingSchema.nullable(),
    ...versionedFields,
    deleted_at: timestamp.nullable().meta({ description: 'Set only in the answer to DELETE; a deleted flight is no longer readable.' }),
  })
  .meta({ id: 'Flight' });

export type Flight = z.infer<typeof flightSchema>;

/** `delivered`: the flight's tracked impressions over its whole life (`deliveredByFlight`); 0 for a flight with none. */
export function presentFlight(row: FlightRow, delivered: number, now = Date.now()): Flight {
  return {
    id: row.id,
    network_id: row.networkId,
    campaign_id: row.campaignId,
    name: row.name,
    status: flightStatus(row),
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    placement: row.placement,
    max_duration_seconds: row.maxDurationSeconds,
    pricing: { model: row.pricingModel, amount_cents: row.amountCents, currency: row.currency },
    impression_goal: row.impressionGoal,
    external_order_id: row.externalOrderId,
    delivered_impressions: delivered,
    pacing: presentPacing(row, delivered, now),
    ...versionedOf(row),
    deleted_at: isoOrNull(row.deletedAt),
  };
}
