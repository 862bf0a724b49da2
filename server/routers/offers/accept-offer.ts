import { acceptOffer } from '@/server/services/offers/decide-offer';
import { networkProcedure } from '@/server/trpc';
import { offerSchema, presentOffer } from './offer.types';
import { acceptOfferInput } from './accept-offer.types';

export const acceptOfferRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No offer with this id in the network.',
      conflict: 'The offer is no longer open (accepted, rejected or expired), or its flight was deleted or has ended.',
      'brand-safety':
        'The podcast now excludes a category of the advertiser or blocks it, or it holds an accepted offer of a competitor (a shared category) in overlapping dates and either campaign asks for competitive separation; `detail` names the rule and, for separation, the other campaign.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/offers/{offerId}/accept',
      tags: ['offers'],
      summary: 'Accept an offer',
      description:
        'Starts generating the host-voiced creative (`creative_id`) and sends offer.accepted — all in one transaction. An offer that is no longer open answers 409; of concurrent accepts exactly one wins. ' +
        'An offer on a flight that was deleted or has ended answers 409; once accepted, the flight’s terms can no longer change nor the flight be deleted.',
      protect: true,
    },
  })
  .input(acceptOfferInput)
  .output(offerSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => acceptOffer({ tx, networkId: input.networkId, offerId: input.offerId }));
    return presentOffer(row);
  });
