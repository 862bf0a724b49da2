import { findOfferDelivery } from '@/server/services/offer-delivery/find-offer-delivery';
import { networkProcedure } from '@/server/trpc';
import { getOfferDeliveryInput, MAX_DELIVERY_DAYS } from './get-offer-delivery.types';
import { offerDeliverySchema } from './offer-delivery.types';

export const getOfferDeliveryRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No offer with this id in the network.' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/offers/{offerId}/delivery',
      tags: ['delivery'],
      summary: 'Get an offer’s delivery, tracked and reported',
      description:
        'Per UTC day, both counts, labelled: `tracked` — what this service counted from the offer’s tracking URL, with the calls it did not count and why — and `reported` — what each source reported, ' +
        `and their sum. From the day the offer was accepted to today unless \`from\`/\`to\` say otherwise; at most ${MAX_DELIVERY_DAYS} days. Read from daily rollups kept as hits arrive.`,
      protect: true,
    },
  })
  .input(getOfferDeliveryInput)
  .output(offerDeliverySchema)
  .query(async ({ ctx, input }) => {
    const delivery = await findOfferDelivery({
      db: ctx.db,
      networkId: input.networkId,
      offerId: input.offerId,
      from: input.from,
      to: input.to,
      maxDays: MAX_DELIVERY_DAYS,
    });
    const days = delivery.days.map((day) => ({
      date: day.date,
      tracked: day.tracked,
      reported: {
        impressions: day.reported.length ? day.reported.reduce((sum, r) => sum + r.impressions, 0) : null,
        sources: day.reported.map((r) => ({ source: r.source, impressions: r.impressions, reported_at: r.reportedAt.toISOString() })),
      },
    }));
    const reportedDays = days.filter((d) => d.reported.impressions !== null);
    return {
      offer_id: input.offerId,
      from: delivery.from,
      to: delivery.to,
      totals: {
        tracked_impressions: days.reduce((sum, d) => sum + d.tracked.impressions, 0),
        reported_impressions: reportedDays.length ? reportedDays.reduce((sum, d) => sum + d.reported.impressions!, 0) : null,
      },
      days,
    };
  });
