import { eq, isNull, and, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { flights } from '@/db/schema';
import { conflict } from '@/server/errors';
import { acceptedOfferOn, withdrawOpenOffers } from '@/server/services/offers/flight-offers';
import { modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';
import { campaignTakingFlights, flightToWrite } from './flight-rules';
import type { FlightRow } from './find-flights';

/**
 * Soft-delete a flight, as advertisers are deleted: it disappears from the campaign's list and
 * from reads (404), the row stays for what will name it (offers made on its terms, reports).
 * An archived campaign's flights stay as they are (409), and so does a flight with an accepted
 * offer, whose terms are a contract (409). Its open offers become expired, as the expiry cron
 * marks them: they can no longer be accepted.
 */
export async function deleteFlight({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  flightId: string;
  expectedVersion: number | undefined;
}): Promise<FlightRow> {
  const { current, version } = await flightToWrite({ tx, ...input });
  await campaignTakingFlights({ tx, networkId: current.networkId, campaignId: current.campaignId });
  const accepted = await acceptedOfferOn({ tx, networkId: current.networkId, flightId: current.id });
  if (accepted) throw conflict(`Flight ${current.id} has an accepted offer (${accepted}), whose terms are a contract: it cannot be deleted.`);
  const [row] = await updateVersioned({
    tx,
    table: flights,
    networkId: current.networkId,
    set: { deletedAt: sql`now()` },
    where: and(eq(flights.id, current.id), isNull(flights.deletedAt)),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Flight');
  await withdrawOpenOffers({ tx, networkId: current.networkId, flightId: current.id });
  return row;
}
