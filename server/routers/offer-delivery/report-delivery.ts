import { reportDelivery } from '@/server/services/offer-delivery/report-delivery';
import { networkProcedure } from '@/server/trpc';
import { reportDeliveryInput, reportDeliveryOutput } from './report-delivery.types';

export const reportDeliveryRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No offer with this id in the network.',
      conflict: 'The offer is not accepted: delivery is reported for accepted offers only.',
      'quota-exceeded': 'The offer’s reports would come from more than 10 sources.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/offers/{offerId}/delivery-reports',
      tags: ['delivery'],
      summary: 'Report an offer’s delivery',
      description:
        'Impressions the host (or its ad server: Megaphone, Acast…) counted for an accepted offer, per UTC day and `source`: one report (`date`, `impressions`, `source`), ' +
        'or many (`reports`, or a `text/csv` body of rows date,impressions,source — a header line may come first). A later report for the same day and source replaces the earlier one; ' +
        'each day and source once per request. Days from the day before the offer was accepted to tomorrow (UTC). Read both counts with `GET …/delivery`; the counting rules are in docs/measurement.md.',
      contentTypes: ['application/json', 'text/csv'],
      protect: true,
    },
  })
  .input(reportDeliveryInput)
  .output(reportDeliveryOutput)
  .mutation(async ({ ctx, input }) => {
    const reports = input.reports
      ? input.reports.map((r, i) => ({ ...r, field: `reports.${i}.` }))
      : [{ date: input.date!, impressions: input.impressions!, source: input.source!, field: '' }];
    const rows = await ctx.db.transaction((tx) =>
      reportDelivery({ tx, networkId: input.networkId, offerId: input.offerId, reports, keyId: ctx.principal.keyId }),
    );
    return {
      offer_id: input.offerId,
      reports: rows
        .map((row) => ({ date: row.day, source: row.source, impressions: row.impressions, reported_at: row.reportedAt.toISOString() }))
        .sort((a, b) => a.date.localeCompare(b.date) || a.source.localeCompare(b.source)),
    };
  });
