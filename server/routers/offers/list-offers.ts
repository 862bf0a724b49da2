import { paginate } from '@/server/http/pagination';
import { listOffers } from '@/server/services/offers/find-offers';
import { networkProcedure } from '@/server/trpc';
import { presentOffer } from './offer.types';
import { listOffersInput, offerListSchema } from './list-offers.types';

export const listOffersRoute = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/offers', tags: ['offers'], summary: 'List offers', protect: true } })
  .input(listOffersInput)
  .output(offerListSchema)
  .query(({ ctx, input }) => {
    const filter = { status: input.status, campaignId: input.campaign_id, podcastId: input.podcast_id };
    return paginate(
      input,
      `offers:${input.networkId}:${input.status ?? ''}:${input.campaign_id ?? ''}:${input.podcast_id ?? ''}`,
      (after, take) => listOffers({ db: ctx.db, networkId: input.networkId, filter, afterId: after, take }),
      presentOffer,
    );
  });
