import { found } from '@/server/errors';
import { findFlight } from '@/server/services/flights/find-flights';
import { deliveredByFlight } from '@/server/services/reports/flight-delivered';
import { networkProcedure } from '@/server/trpc';
import { flightSchema, presentFlight } from './flight.types';
import { getFlightInput } from './get-flight.types';

export const getFlightRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No flight with this id in the network (or it was deleted).' },
    openapi: { method: 'GET', path: '/networks/{networkId}/flights/{flightId}', tags: ['flights'], summary: 'Get a flight', protect: true },
  })
  .input(getFlightInput)
  .output(flightSchema)
  .query(async ({ ctx, input }) => {
    const { networkId, flightId } = input;
    const row = found(await findFlight({ db: ctx.db, networkId, flightId }), 'Flight');
    const delivered = await deliveredByFlight({ db: ctx.db, networkId, flightIds: [row.id] });
    return presentFlight(row, delivered.get(row.id) ?? 0);
  });
