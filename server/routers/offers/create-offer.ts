import { createOffer } from '@/server/services/offers/create-offer';
import { networkProcedure } from '@/server/trpc';
import { offerSchema, presentOffer } from './offer.types';
import { createOfferInput } from './create-offer.types';

export const createOfferRoute = networkProcedure('administrator')
  .meta({
    errors: {
      conflict: 'The campaign is not draft or active, the podcast has not opted in, or the flight was deleted or has ended.',
      'brand-safety':
        'The podcast excludes a category of the campaign’s advertiser (or one above it), or blocks the advertiser; `detail` names the rule.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/offers',
      tags: ['offers'],
      summary: 'Offer a campaign to a podcast',
      description:
        'The campaign must be draft or active and the podcast opted in (else 409). With `flight_id` the offer is for the flight’s campaign ' +
        '(`campaign_id` may be left out; another one is a 400) and carries the flight’s `terms`, copied now: its price is the flight’s, ' +
        'or `amount_cents` in the flight’s currency (`price_cents` and `currency` are a 400), and `impression_goal` is this podcast’s share ' +
        '(not above the flight’s). A deleted or ended flight cannot be offered (409).',
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
        flightId: input.flight_id,
        amountCents: input.amount_cents,
        impressionGoal: input.impression_goal,
        priceCents: input.price_cents,
        currency: input.currency,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    ctx.http.status = 201;
    return presentOffer(row);
  });
