import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { flights } from '@/db/schema';
import { assertFlightTerms, campaignTakingFlights } from './flight-rules';
import type { FlightRow } from './find-flights';

export type NewFlight = Omit<typeof flights.$inferInsert, 'id' | 'deletedAt' | 'version' | 'createdAt' | 'updatedAt'>;

/**
 * Create a flight of a campaign of the network: an unknown or foreign campaign is a 404 (it is in
 * the URL), an archived one a 409; the dates and pricing are checked against each other and
 * against the campaign's dates (400 naming the field).
 */
export async function createFlight({ tx, flight }: { tx: Tx; flight: NewFlight }): Promise<FlightRow> {
  const campaign = await campaignTakingFlights({ tx, networkId: flight.networkId, campaignId: flight.campaignId });
  assertFlightTerms({ ...flight, impressionGoal: flight.impressionGoal ?? null }, campaign);
  const [row] = await tx
    .insert(flights)
    .values({ ...flight, id: newId('flight') })
    .returning();
  return row!;
}
