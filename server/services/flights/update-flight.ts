import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { flights } from '@/db/schema';
import { conflict } from '@/server/errors';
import { acceptedOfferOn, withdrawOpenOffers } from '@/server/services/offers/flight-offers';
import { modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';
import { assertFlightTerms, campaignTakingFlights, flightToWrite } from './flight-rules';
import type { FlightRow } from './find-flights';
import type { NewFlight } from './create-flight';

/** What a PATCH may change: everything but the network and the campaign. */
export type FlightChanges = Partial<Omit<NewFlight, 'networkId' | 'campaignId'>>;

/** The fields an offer on the flight copies as its terms (offers/flight-offers.ts). */
const TERMS: ReadonlyArray<keyof FlightChanges> = [
  'startsAt',
  'endsAt',
  'placement',
  'maxDurationSeconds',
  'pricingModel',
  'amountCents',
  'currency',
  'impressionGoal',
];

/** The terms `changes` would change (by value: sending what the flight has changes nothing). */
export function changedTerms(current: FlightRow, changes: FlightChanges): Array<keyof FlightChanges> {
  const value = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  return TERMS.filter((field) => field in changes && value(changes[field]) !== value(current[field]));
}

/**
 * Optimistically locked update. Cross-field rules and the campaign's dates are checked on the
 * values the update would leave; an archived campaign's flights cannot change (409). A request
 * that changes nothing answers the flight as it is. Under an accepted offer the terms are a
 * contract: a change of them is a 409 (the name and external_order_id still change). A change of
 * terms withdraws the open offers made on the old ones (they become expired).
 */
export async function updateFlight({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  flightId: string;
  changes: FlightChanges;
  expectedVersion: number | undefined;
}): Promise<FlightRow> {
  const { current, version } = await flightToWrite({ tx, ...input });
  const { changes } = input;
  if (Object.keys(changes).length === 0) return current;
  const campaign = await campaignTakingFlights({ tx, networkId: current.networkId, campaignId: current.campaignId });
  const next = { ...current, ...changes };
  assertFlightTerms({ ...next, impressionGoal: next.impressionGoal ?? null }, campaign);
  const terms = changedTerms(current, changes);
  if (terms.length > 0) {
    const accepted = await acceptedOfferOn({ tx, networkId: current.networkId, flightId: current.id });
    if (accepted) {
      throw conflict(
        `Flight ${current.id} has an accepted offer (${accepted}), whose terms are the flight's: its dates, placement, ` +
          'max_duration_seconds, pricing and impression_goal can no longer change (its name and external_order_id can).',
      );
    }
  }
  const [row] = await updateVersioned({
    tx,
    table: flights,
    networkId: current.networkId,
    set: changes,
    where: eq(flights.id, current.id),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Flight');
  if (terms.length > 0) await withdrawOpenOffers({ tx, networkId: current.networkId, flightId: current.id });
  return row;
}
