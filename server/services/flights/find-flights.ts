import { eq, isNull } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { flights } from '@/db/schema';
import { networkPage, networkRow, type NetworkPage, type RowLock } from '@/server/services/page';

export type FlightRow = typeof flights.$inferSelect;

/**
 * One live flight of the network, or undefined: a deleted flight and an id of another network
 * look the same as a missing one (ids are not leaked). Locked until the transaction ends when `lock` says so.
 */
export async function findFlight({
  db,
  networkId,
  flightId,
  lock,
}: {
  db: Queryable;
  networkId: string;
  flightId: string;
  lock?: RowLock;
}): Promise<FlightRow | undefined> {
  return networkRow(flights, { db, networkId, id: flightId, lock }, [isNull(flights.deletedAt)]);
}

/** The live flights of one campaign of the network, in id (= creation) order, after `afterId`. */
export async function listFlights({ campaignId, ...page }: NetworkPage & { campaignId: string }): Promise<FlightRow[]> {
  return networkPage(flights, page, [eq(flights.campaignId, campaignId), isNull(flights.deletedAt)]);
}
