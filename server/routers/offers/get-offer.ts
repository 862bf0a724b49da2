import { notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { findOffer } from '../../services/offers/find-offers';
import { networkProcedure } from '../../trpc';
import { offerSchema, presentOffer } from './offer.types';
import { offerInput } from './offers.types';

export const getOffer = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/offers/{offerId}', tags: ['offers'], summary: 'Get an offer', protect: true } })
  .input(offerInput)
  .output(offerSchema)
  .query(async ({ ctx, input }) => {
    const row = await findOffer(ctx.db, input.networkId, input.offerId);
    if (!row) throw notFound('Offer');
    setEtag(ctx.http, row.version);
    return presentOffer(row);
  });
