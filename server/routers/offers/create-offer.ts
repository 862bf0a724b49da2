import { setEtag } from '../../http/locking';
import { createOffer as insertOffer } from '../../services/offers/create-offer';
import { networkProcedure } from '../../trpc';
import { offerSchema, presentOffer } from './offer.types';
import { createOfferInput } from './offers.types';

export const createOffer = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/offers',
      tags: ['offers'],
      summary: 'Offer a campaign to a podcast',
      description: 'The campaign must be draft or active and the podcast opted in (else 409).',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createOfferInput)
  .output(offerSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      insertOffer(tx, input.networkId, {
        campaignId: input.campaign_id,
        podcastId: input.podcast_id,
        priceCents: input.price_cents,
        currency: input.currency,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    ctx.http.status = 201;
    setEtag(ctx.http, row.version);
    return presentOffer(row);
  });
