import { expectedVersion } from '@/server/http/locking';
import { sentFields } from '@/server/http/patch';
import { updateFlight, type FlightChanges } from '@/server/services/flights/update-flight';
import { deliveredByFlight } from '@/server/services/reports/flight-delivered';
import { networkProcedure } from '@/server/trpc';
import { flightSchema, presentFlight } from './flight.types';
import { updateFlightInput } from './update-flight.types';

export const updateFlightRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No flight with this id in the network (or it was deleted).',
      conflict: 'The version is stale, or the flight’s campaign is archived.',
    },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}/flights/{flightId}',
      tags: ['flights'],
      summary: 'Update a flight',
      description:
        'Optimistically locked (If-Match or `version`; stale → 409). The rules of creation are checked on the values the update leaves; ' +
        '`pricing` is replaced whole. The flights of an archived campaign cannot change (409). The campaign of a flight cannot be changed.',
      protect: true,
    },
  })
  .input(updateFlightInput)
  .output(flightSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), input.version);
    const changes = sentFields<FlightChanges>({
      name: input.name,
      startsAt: input.starts_at === undefined ? undefined : new Date(input.starts_at),
      endsAt: input.ends_at === undefined ? undefined : new Date(input.ends_at),
      placement: input.placement,
      maxDurationSeconds: input.max_duration_seconds,
      pricingModel: input.pricing?.model,
      amountCents: input.pricing?.amount_cents,
      currency: input.pricing?.currency,
      impressionGoal: input.impression_goal,
      externalOrderId: input.external_order_id,
    });
    const row = await ctx.db.transaction((tx) =>
      updateFlight({ tx, networkId: input.networkId, flightId: input.flightId, changes, expectedVersion: expected }),
    );
    const delivered = await deliveredByFlight({ db: ctx.db, networkId: input.networkId, flightIds: [row.id] });
    return presentFlight(row, delivered.get(row.id) ?? 0);
  });
