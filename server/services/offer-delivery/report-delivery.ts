import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { deliveryReports, offers } from '@/db/schema';
import { column } from '@/db/statement';
import { AppError, badRequest, conflict, notFound, type FieldError } from '@/server/errors';
import { offerStatus } from '@/server/services/offers/offer-status';
import { networkRow } from '@/server/services/page';
import { addDays, utcDay } from '@/server/services/tracking/hit-rules';

/** One day's impressions from one source; `field` is where the request had it (`date`, `reports.3.date`…), for a 400. */
export interface DeliveryReportInput {
  date: string;
  impressions: number;
  source: string;
  field: string;
}

/** The most sources an offer's reports come from: sources are names a client chooses, so they are bounded. */
export const MAX_SOURCES_PER_OFFER = 10;

/**
 * Record what a host (or its ad server) counted for an accepted offer: one row per day and source,
 * a later report for the same day and source replacing the earlier one. Days run from the day before
 * the offer was accepted (time zones) to tomorrow (UTC); each day and source once per request.
 * Under the offer's row lock, so the bound on sources holds against concurrent reports.
 */
export async function reportDelivery({
  tx,
  networkId,
  offerId,
  reports,
  keyId,
}: {
  tx: Tx;
  networkId: string;
  offerId: string;
  reports: DeliveryReportInput[];
  keyId: string | null;
}) {
  const offer = await networkRow(offers, { db: tx, networkId, id: offerId, lock: 'no key update' });
  if (!offer) throw notFound('Offer');
  const status = offerStatus(offer);
  if (status !== 'accepted') throw conflict(`Delivery is reported for an accepted offer; this one is ${status}.`);

  const first = addDays(utcDay(offer.decidedAt!.getTime()), -1);
  const last = addDays(utcDay(Date.now()), 1);
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const report of reports) {
    if (report.date < first || report.date > last) {
      errors.push({ path: `${report.field}date`, message: `must be from ${first} (the day before the offer was accepted) to ${last}.` });
    }
    const key = `${report.date} ${report.source}`;
    if (seen.has(key)) errors.push({ path: `${report.field}source`, message: `${report.source} reports ${report.date} twice in this request.` });
    seen.add(key);
  }
  if (errors.length > 0) throw badRequest(`Invalid request: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);

  const existing = await tx
    .selectDistinct({ source: deliveryReports.source })
    .from(deliveryReports)
    .where(and(eq(deliveryReports.networkId, networkId), eq(deliveryReports.offerId, offerId)));
  const sources = new Set([...existing.map((r) => r.source), ...reports.map((r) => r.source)]);
  if (sources.size > MAX_SOURCES_PER_OFFER) {
    throw new AppError(
      'quota-exceeded',
      `An offer's delivery is reported by at most ${MAX_SOURCES_PER_OFFER} sources; this one would have ${sources.size}. Report under a source it already has.`,
    );
  }

  const d = deliveryReports;
  return tx
    .insert(d)
    .values(reports.map(({ date, impressions, source }) => ({ networkId, offerId, day: date, source, impressions, reportedByKeyId: keyId })))
    .onConflictDoUpdate({
      target: [d.networkId, d.offerId, d.day, d.source],
      set: {
        impressions: sql`excluded.${column(d.impressions)}`,
        reportedByKeyId: sql`excluded.${column(d.reportedByKeyId)}`,
        reportedAt: sql`now()`,
      },
    })
    .returning();
}
