import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { flights } from '@/db/schema';
import { modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';
import { assertFlightTerms, campaignTakingFlights, flightToWrite } from './flight-rules';
import type { FlightRow } from './find-flights';
import type { NewFlight } from './create-flight';

/** What a PATCH may change: everything but the network and the campaign. */
export type FlightChanges = Partial<Omit<NewFlight, 'networkId' | 'campaignId'>>;

/**
 * Optimistically locked update. Cross-field rules and the campaign's dates are checked on the
 * values the update would leave; an archived campaign's flights cannot change (409). A request
 * that changes nothing answers the flight as it is.
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
  const [row] = await updateVersioned({
    tx,
    table: flights,
    networkId: current.networkId,
    set: changes,
    where: eq(flights.id, current.id),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Flight');
  return row;
}
