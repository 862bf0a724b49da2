import { found } from '@/server/errors';
import { findOffer } from '@/server/services/offers/find-offers';
import { networkProcedure } from '@/server/trpc';
import { offerSchema, presentOffer } from './offer.types';
import { getOfferInput } from './get-offer.types';

export const getOfferRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No offer with this id in the network.' },
    openapi: { method: 'GET', path: '/networks/{networkId}/offers/{offerId}', tags: ['offers'], summary: 'Get an offer', protect: true },
  })
  .input(getOfferInput)
  .output(offerSchema)
  .query(async ({ ctx, input }) => presentOffer(found(await findOffer({ db: ctx.db, networkId: input.networkId, id: input.offerId }), 'Offer')));
