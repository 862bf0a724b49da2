import { createFlight } from '@/server/services/flights/create-flight';
import { networkProcedure } from '@/server/trpc';
import { createFlightInput } from './create-flight.types';
import { flightSchema, presentFlight } from './flight.types';

export const createFlightRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No campaign with this id in the network.',
      conflict: 'The campaign is archived: it takes no new flights.',
    },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/campaigns/{campaignId}/flights',
      tags: ['flights'],
      summary: 'Create a flight of a campaign',
      description:
        '`ends_at` must be after `starts_at`, and both inside the campaign’s dates when it has them (else 400 on the field). ' +
        '`impression_goal` is required when `pricing.model` is cpm. `max_duration_seconds` defaults to 60. An archived campaign takes no new flights (409).',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createFlightInput)
  .output(flightSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      createFlight({
        tx,
        flight: {
          networkId: input.networkId,
          campaignId: input.campaignId,
          name: input.name,
          startsAt: new Date(input.starts_at),
          endsAt: new Date(input.ends_at),
          placement: input.placement,
          maxDurationSeconds: input.max_duration_seconds,
          pricingModel: input.pricing.model,
          amountCents: input.pricing.amount_cents,
          currency: input.pricing.currency,
          impressionGoal: input.impression_goal ?? null,
          externalOrderId: input.external_order_id ?? null,
        },
      }),
    );
    ctx.http.status = 201;
    return presentFlight(row, 0); // no offers yet, so nothing delivered
  });
