import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { flights, offers, type OfferTerms } from '@/db/schema';
import { badRequest, conflict, type FieldError } from '@/server/errors';
import type { FlightRow } from '@/server/services/flights/find-flights';
import { flightStatus } from '@/server/services/flights/flight-status';
import { updateVersioned } from '@/server/services/optimistic-lock';
import { networkRow } from '@/server/services/page';

/*
 * Offers on a flight, and the flight's side of the contract. The order of locks is the same on
 * every path: the flight first, then its offers. An offer is made and accepted under the flight's
 * row share-locked (`lockFlightToOffer`); a flight's PATCH and DELETE lock it for writing before
 * they look at its offers (`flightToWrite`). So the two queue, and whichever commits second sees
 * the first: an accept sees the changed or deleted flight (its open offers are expired by then),
 * or the PATCH or DELETE sees the accepted offer (409).
 */

/**
 * The flight an offer is made or accepted on, share-locked until the transaction ends — a deleted
 * one too, for its 409. Undefined when the network has no flight by this id.
 */
export async function lockFlightToOffer({
  tx,
  networkId,
  flightId,
}: {
  tx: Tx;
  networkId: string;
  flightId: string;
}): Promise<FlightRow | undefined> {
  return networkRow(flights, { db: tx, networkId, id: flightId, lock: 'share' });
}

/** A flight can be offered and booked until it is deleted or has ended (409). */
export function assertFlightBookable(flight: FlightRow, now = Date.now()): void {
  if (flight.deletedAt) throw conflict(`Flight ${flight.id} was deleted: it can no longer be offered or booked.`);
  if (flightStatus(flight, now) === 'ended') {
    throw conflict(`Flight ${flight.id} ended at ${flight.endsAt.toISOString()}: it can no longer be offered or booked.`);
  }
}

/** The flight named by an offer's `flight_id`: unknown → 400 naming the field (the request is wrong, not the URL); deleted or ended → 409. */
export async function flightToOffer({ tx, networkId, flightId }: { tx: Tx; networkId: string; flightId: string }): Promise<FlightRow> {
  const flight = await lockFlightToOffer({ tx, networkId, flightId });
  if (!flight) throw badRequest('flight_id is not a flight of this network.', [{ path: 'flight_id', message: 'Unknown flight.' }]);
  assertFlightBookable(flight);
  return flight;
}

/** What a request sends beside the flight: a podcast's own amount and share of the goal, and the fields that do not go with a flight. */
export interface OfferShare {
  campaignId?: string | undefined;
  priceCents?: number | undefined;
  currency?: string | undefined;
  amountCents?: number | undefined;
  impressionGoal?: number | undefined;
}

/**
 * The terms an offer on `flight` carries, copied now and never changed by later edits of the
 * flight: its dates, placement, longest ad and pricing, with this podcast's `amountCents` (in the
 * flight's currency) and share of the impression goal when given. Null without a flight. A field
 * that does not fit is a 400 naming it: `campaign_id` other than the flight's, `price_cents` or
 * `currency` with a flight (the amount is `amount_cents`), `amount_cents` or `impression_goal`
 * without one, an `impression_goal` above the flight's.
 */
export function offerTerms(flight: FlightRow | undefined, share: OfferShare): OfferTerms | null {
  const errors: FieldError[] = [];
  if (!flight) {
    if (share.amountCents !== undefined) {
      errors.push({
        path: 'amount_cents',
        message: 'amount_cents goes with flight_id; without a flight an offer is priced by price_cents and currency.',
      });
    }
    if (share.impressionGoal !== undefined) errors.push({ path: 'impression_goal', message: 'impression_goal goes with flight_id.' });
    throwFirst(errors);
    return null;
  }
  if (share.campaignId !== undefined && share.campaignId !== flight.campaignId) {
    errors.push({ path: 'campaign_id', message: `The flight is of campaign ${flight.campaignId}: leave campaign_id out, or send that one.` });
  }
  if (share.priceCents !== undefined) {
    errors.push({ path: 'price_cents', message: 'An offer on a flight is priced by the flight: send amount_cents to change the amount.' });
  }
  if (share.currency !== undefined) {
    errors.push({ path: 'currency', message: `An offer on a flight is in the flight's currency (${flight.currency}): leave currency out.` });
  }
  if (share.impressionGoal !== undefined && flight.impressionGoal !== null && share.impressionGoal > flight.impressionGoal) {
    errors.push({ path: 'impression_goal', message: `impression_goal must not exceed the flight's (${flight.impressionGoal}).` });
  }
  throwFirst(errors);
  return {
    placement: flight.placement,
    starts_at: flight.startsAt.toISOString(),
    ends_at: flight.endsAt.toISOString(),
    max_duration_seconds: flight.maxDurationSeconds,
    pricing: { model: flight.pricingModel, amount_cents: share.amountCents ?? flight.amountCents, currency: flight.currency },
    impression_goal: share.impressionGoal ?? null,
  };
}

function throwFirst(errors: FieldError[]): void {
  const first = errors[0];
  if (first) throw badRequest(`Invalid request: ${first.path}: ${first.message}`, errors);
}

/** The id of an accepted offer on the flight, if it has one: its terms are a contract the flight keeps. */
export async function acceptedOfferOn({ tx, networkId, flightId }: { tx: Tx; networkId: string; flightId: string }): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: offers.id })
    .from(offers)
    .where(and(eq(offers.networkId, networkId), eq(offers.flightId, flightId), eq(offers.status, 'accepted')))
    .orderBy(offers.id)
    .limit(1);
  return row?.id;
}

/**
 * The flight's open offers become `expired`, as the expiry cron marks an open offer past its time
 * (the status and version; no event): they were made on terms the flight no longer has, or on a
 * flight that is gone, and can no longer be accepted. Returns how many.
 */
export async function withdrawOpenOffers({ tx, networkId, flightId }: { tx: Tx; networkId: string; flightId: string }): Promise<number> {
  const rows = await updateVersioned({
    tx,
    table: offers,
    networkId,
    set: { status: 'expired' },
    where: and(eq(offers.flightId, flightId), eq(offers.status, 'open')),
  }).returning({ id: offers.id });
  return rows.length;
}
