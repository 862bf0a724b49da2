import { paginate } from '../../http/pagination';
import { listOffers as findOffers } from '../../services/offers/find-offers';
import { networkProcedure } from '../../trpc';
import { presentOffer } from './offer.types';
import { listOffersInput, offerListSchema } from './offers.types';

export const listOffers = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/offers', tags: ['offers'], summary: 'List offers', protect: true } })
  .input(listOffersInput)
  .output(offerListSchema)
  .query(({ ctx, input }) => {
    const filter = { status: input.status, campaignId: input.campaign_id, podcastId: input.podcast_id };
    return paginate(
      input,
      `offers:${input.networkId}:${input.status ?? ''}:${input.campaign_id ?? ''}:${input.podcast_id ?? ''}`,
      (after, take) => findOffers(ctx.db, input.networkId, filter, after, take),
      presentOffer,
    );
  });
