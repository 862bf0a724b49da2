import { EVENT_TYPES, EVENT_TYPE_NAMES } from '@/server/services/events/event-types';
import { authedProcedure } from '@/server/trpc';
import { eventTypeListSchema, listEventTypesInput } from './list-event-types.types';

export const listEventTypesRoute = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/event-types', tags: ['events'], summary: 'Event types a webhook can subscribe to', protect: true } })
  .input(listEventTypesInput)
  .output(eventTypeListSchema)
  .query(() => ({
    items: EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type] })),
    next_cursor: null,
  }));
