import { EVENT_TYPES, EVENT_TYPE_NAMES, eventDataJsonSchema, exampleEnvelope } from '@/server/services/events/event-types';
import { authedProcedure } from '@/server/trpc';
import { eventTypeListSchema, listEventTypesInput } from './list-event-types.types';

export const listEventTypesRoute = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/event-types',
      tags: ['events'],
      summary: 'The event catalog: types a webhook can subscribe to',
      description: 'Each type with what it means, the JSON Schema of its `data` (exactly what deliveries carry) and an example envelope.',
      protect: true,
    },
  })
  .input(listEventTypesInput)
  .output(eventTypeListSchema)
  .query(() => ({
    items: EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type], data_schema: eventDataJsonSchema(type), example: exampleEnvelope(type) })),
    next_cursor: null,
  }));
