import { and, asc, between, eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { deliveryReports, offers, trackingDaily } from '@/db/schema';
import { badRequest, found } from '@/server/errors';
import { networkRow } from '@/server/services/page';
import { addDays, DAY_MS, utcDay } from '@/server/services/tracking/hit-rules';

export type DeliveryReportRow = typeof deliveryReports.$inferSelect;

export interface DeliveryDay {
  date: string;
  tracked: { impressions: number; hits: number; bots: number; duplicates: number; abnormal: number };
  reported: DeliveryReportRow[];
}

/**
 * An offer's delivery per UTC day from `from` to `to` (default: the day it was accepted, or made,
 * to today): what this service tracked, from the daily rollups (never the raw hits), and what each
 * source reported. At most `maxDays` days.
 */
export async function findOfferDelivery({
  db,
  networkId,
  offerId,
  from,
  to,
  maxDays,
}: {
  db: Queryable;
  networkId: string;
  offerId: string;
  from?: string | undefined;
  to?: string | undefined;
  maxDays: number;
}): Promise<{ from: string; to: string; days: DeliveryDay[] }> {
  const offer = found(await networkRow(offers, { db, networkId, id: offerId }), 'Offer');
  const start = from ?? utcDay((offer.decidedAt ?? offer.createdAt).getTime());
  const end = to ?? utcDay(Date.now());
  if (start > end)
    throw badRequest(`Invalid request: from (${start}) is after to (${end}).`, [{ path: 'from', message: `must not be after ${end}.` }]);
  const count = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
  if (count > maxDays) {
    throw badRequest(`Invalid request: at most ${maxDays} days at once (${start} to ${end} is ${count}).`, [
      { path: 'from', message: `must be at most ${maxDays} days before to.` },
    ]);
  }
  const t = trackingDaily;
  const [tracked, reported] = await Promise.all([
    db
      .select()
      .from(t)
      .where(and(eq(t.networkId, networkId), eq(t.offerId, offerId), between(t.day, start, end))),
    db
      .select()
      .from(deliveryReports)
      .where(and(eq(deliveryReports.networkId, networkId), eq(deliveryReports.offerId, offerId), between(deliveryReports.day, start, end)))
      .orderBy(asc(deliveryReports.day), asc(deliveryReports.source)),
  ]);
  const days = Array.from({ length: count }, (_, i): DeliveryDay => {
    const date = addDays(start, i);
    const row = tracked.find((r) => r.day === date);
    return {
      date,
      tracked: {
        impressions: row?.impressions ?? 0,
        hits: row?.hits ?? 0,
        bots: row?.bots ?? 0,
        duplicates: row?.duplicates ?? 0,
        abnormal: row?.abnormal ?? 0,
      },
      reported: reported.filter((r) => r.day === date),
    };
  });
  return { from: start, to: end, days };
}
