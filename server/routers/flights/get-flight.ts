import { found } from '@/server/errors';
import { findFlight } from '@/server/services/flights/find-flights';
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
  .query(async ({ ctx, input }) =>
    presentFlight(found(await findFlight({ db: ctx.db, networkId: input.networkId, flightId: input.flightId }), 'Flight')),
  );
