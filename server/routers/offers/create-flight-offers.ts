import { problemFromError } from '@/server/http/problem';
import { createFlightOffers } from '@/server/services/offers/create-flight-offers';
import { networkProcedure } from '@/server/trpc';
import { createFlightOffersInput, createFlightOffersOutput, MAX_PODCASTS_PER_BULK_OFFER } from './create-flight-offers.types';
import { presentOffer } from './offer.types';

export const createFlightOffersRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No flight with this id in the network (or it was deleted).',
      conflict: 'The flight has ended, or its campaign is not draft or active. (A podcast’s own refusal is an item of the answer, not the answer.)',
      'brand-safety': 'Only as an item’s `error`: the podcast excludes a category of the campaign’s advertiser, or blocks the advertiser.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/flights/{flightId}/offers',
      tags: ['offers'],
      summary: 'Offer a flight to many podcasts',
      description:
        `Up to ${MAX_PODCASTS_PER_BULK_OFFER} podcasts, each once. Each podcast’s offer is made as POST /offers with this \`flight_id\` makes it, ` +
        'every rule included, and `items` answers each in the request’s order: `{podcast_id, status: 201, offer}` or ' +
        '`{podcast_id, status, error}` with the error envelope that POST would have answered (an unknown podcast → 400, one not opted in → 409). ' +
        'One podcast’s refusal does not undo the others’ offers; the answer as a whole is replayed under its Idempotency-Key. ' +
        'What does not depend on the podcast refuses the whole request: an ended flight or a campaign that is not draft or active (409), ' +
        'an `impression_goal` above the flight’s or an `expires_at` in the past (400).',
      protect: true,
    },
  })
  .input(createFlightOffersInput)
  .output(createFlightOffersOutput)
  .mutation(async ({ ctx, input }) => {
    const outcomes = await ctx.db.transaction((tx) =>
      createFlightOffers({
        tx,
        networkId: input.networkId,
        flightId: input.flightId,
        podcastIds: input.podcast_ids,
        amountCents: input.amount_cents,
        impressionGoal: input.impression_goal,
        expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
      }),
    );
    return {
      items: outcomes.map((outcome) => {
        if ('offer' in outcome) return { podcast_id: outcome.podcastId, status: 201 as const, offer: presentOffer(outcome.offer) };
        const error = problemFromError(outcome.refusal);
        return { podcast_id: outcome.podcastId, status: error.status, error };
      }),
    };
  });
