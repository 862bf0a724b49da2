import { rejectOffer } from '@/server/services/offers/decide-offer';
import { networkProcedure } from '@/server/trpc';
import { offerSchema, presentOffer } from './offer.types';
import { rejectOfferInput } from './reject-offer.types';

export const rejectOfferRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No offer with this id in the network.', conflict: 'The offer is no longer open (accepted, rejected or expired).' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/offers/{offerId}/reject',
      tags: ['offers'],
      summary: 'Reject an offer',
      description: 'Optional `reason`. Sends offer.rejected. An offer that is no longer open answers 409.',
      protect: true,
    },
  })
  .input(rejectOfferInput)
  .output(offerSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      rejectOffer({ tx, networkId: input.networkId, offerId: input.offerId, reason: input.reason || undefined }),
    );
    return presentOffer(row);
  });
