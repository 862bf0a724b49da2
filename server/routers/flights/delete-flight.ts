import { expectedVersion } from '@/server/http/locking';
import { deleteFlight } from '@/server/services/flights/delete-flight';
import { deliveredByFlight } from '@/server/services/reports/flight-delivered';
import { networkProcedure } from '@/server/trpc';
import { deleteFlightInput } from './delete-flight.types';
import { flightSchema, presentFlight } from './flight.types';

export const deleteFlightRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No flight with this id in the network (or it was already deleted).',
      conflict: 'The version is stale, or the flight’s campaign is archived.',
    },
    openapi: {
      method: 'DELETE',
      path: '/networks/{networkId}/flights/{flightId}',
      tags: ['flights'],
      summary: 'Delete a flight',
      description:
        'Soft delete: answers 200 with the flight (`deleted_at` set); from then on it is not listed and reads answer 404. ' +
        'The flights of an archived campaign stay (409). Optionally locked with If-Match.',
      protect: true,
    },
  })
  .input(deleteFlightInput)
  .output(flightSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), undefined);
    const row = await ctx.db.transaction((tx) =>
      deleteFlight({ tx, networkId: input.networkId, flightId: input.flightId, expectedVersion: expected }),
    );
    const delivered = await deliveredByFlight({ db: ctx.db, networkId: input.networkId, flightIds: [row.id] });
    return presentFlight(row, delivered.get(row.id) ?? 0);
  });
