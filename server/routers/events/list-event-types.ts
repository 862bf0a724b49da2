import { eventCatalog } from '@/domain/events';
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
  .query(() => ({ items: eventCatalog(), next_cursor: null }));
