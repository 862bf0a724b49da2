import { eq, isNull, and, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { flights } from '@/db/schema';
import { modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';
import { campaignTakingFlights, flightToWrite } from './flight-rules';
import type { FlightRow } from './find-flights';

/**
 * Soft-delete a flight, as advertisers are deleted: it disappears from the campaign's list and
 * from reads (404), the row stays for what will name it (offers made on its terms, reports).
 * An archived campaign's flights stay as they are (409).
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
  const [row] = await updateVersioned({
    tx,
    table: flights,
    networkId: current.networkId,
    set: { deletedAt: sql`now()` },
    where: and(eq(flights.id, current.id), isNull(flights.deletedAt)),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Flight');
  return row;
}
