import { createOffer } from '@/server/services/offers/create-offer';
import { networkProcedure } from '@/server/trpc';
import { offerSchema, presentOffer } from './offer.types';
import { createOfferInput } from './create-offer.types';

export const createOfferRoute = networkProcedure('administrator')
  .meta({
    errors: { conflict: 'The campaign is not draft or active, or the podcast has not opted in.' },
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
      createOffer({
        tx,
        networkId: input.networkId,
        campaignId: input.campaign_id,
        podcastId: input.podcast_id,
        priceCents: input.price_cents,
        currency: input.currency,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    ctx.http.status = 201;
    return presentOffer(row);
  });
