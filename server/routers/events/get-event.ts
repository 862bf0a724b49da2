import { found } from '@/server/errors';
import { findEvent } from '@/server/services/events/list-events';
import { networkProcedure } from '@/server/trpc';
import { eventSchema, getEventInput } from './list-events.types';
import { presentEvent } from './list-events';

export const getEventRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No event with this id in the network.' },
    openapi: { method: 'GET', path: '/networks/{networkId}/events/{eventId}', tags: ['events'], summary: 'Get an event', protect: true },
  })
  .input(getEventInput)
  .output(eventSchema)
  .query(async ({ ctx, input }) => presentEvent(found(await findEvent({ db: ctx.db, networkId: input.networkId, id: input.eventId }), 'Event')));
