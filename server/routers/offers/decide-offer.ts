import { setEtag } from '../../http/locking';
import { acceptOffer as accept, rejectOffer as reject } from '../../services/offers/decide-offer';
import { networkProcedure } from '../../trpc';
import { offerSchema, presentOffer } from './offer.types';
import { offerInput, rejectOfferInput } from './offers.types';

export const acceptOffer = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/offers/{offerId}/accept',
      tags: ['offers'],
      summary: 'Accept an offer',
      description:
        'Starts generating the host-voiced creative (`creative_id`) and sends offer.accepted — all in one transaction. An offer that is no longer open answers 409; of concurrent accepts exactly one wins.',
      protect: true,
    },
  })
  .input(offerInput)
  .output(offerSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => accept(tx, input.networkId, input.offerId));
    setEtag(ctx.http, row.version);
    return presentOffer(row);
  });

export const rejectOffer = networkProcedure('administrator')
  .meta({
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
    const row = await ctx.db.transaction((tx) => reject(tx, input.networkId, input.offerId, input.reason || undefined));
    setEtag(ctx.http, row.version);
    return presentOffer(row);
  });
