import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { offers, trackingDaily } from '@/db/schema';

/**
 * What pacing counts as delivered (domain/pacing.ts, PACING_BASIS): per flight, the tracked
 * impressions of all its offers over their whole life, read from the daily rollups (never the raw
 * hits), in one statement for a page of flights. A flight with none is absent from the map.
 */
export async function deliveredByFlight({
  db,
  networkId,
  flightIds,
}: {
  db: Queryable;
  networkId: string;
  flightIds: readonly string[];
}): Promise<Map<string, number>> {
  if (flightIds.length === 0) return new Map();
  const rows = await db
    .select({ flightId: offers.flightId, delivered: sql<string>`sum(${trackingDaily.impressions})` })
    .from(trackingDaily)
    .innerJoin(offers, and(eq(offers.networkId, trackingDaily.networkId), eq(offers.id, trackingDaily.offerId)))
    .where(and(eq(trackingDaily.networkId, networkId), eq(offers.networkId, networkId), inArray(offers.flightId, [...flightIds])))
    .groupBy(offers.flightId);
  return new Map(rows.map((r) => [r.flightId!, Number(r.delivered)]));
}
