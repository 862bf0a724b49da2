import { paginate } from '@/server/http/pagination';
import { listOffers } from '@/server/services/offers/find-offers';
import { networkProcedure } from '@/server/trpc';
import { timeWindow } from '@/server/routers/shared.types';
import { presentOffer } from './offer.types';
import { listOffersInput, offerListSchema } from './list-offers.types';

export const listOffersRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/offers',
      tags: ['offers'],
      summary: 'List offers',
      description:
        'Filters `status`, `campaign_id`, `podcast_id`, `flight_id` and the creation time (`since`, `until`, inclusive) combine with the cursor. Ordered by id.',
      protect: true,
    },
  })
  .input(listOffersInput)
  .output(offerListSchema)
  .query(({ ctx, input }) => {
    const filter = { status: input.status, campaignId: input.campaign_id, podcastId: input.podcast_id, flightId: input.flight_id };
    const created = timeWindow(input);
    return paginate(
      input,
      `offers:${input.networkId}:${input.status ?? ''}:${input.campaign_id ?? ''}:${input.podcast_id ?? ''}:${input.flight_id ?? ''}:${created.scope}`,
      (after, take) => listOffers({ db: ctx.db, networkId: input.networkId, filter, afterId: after, take, created }),
      presentOffer,
    );
  });
