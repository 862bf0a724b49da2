import { z } from 'zod';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../../services/events/event-types';
import { authedProcedure } from '../../trpc';
import { eventTypeSchema } from './list-events.types';

const eventTypeInfo = z.object({ type: eventTypeSchema, description: z.string() }).meta({ id: 'EventTypeInfo' });

export const listEventTypes = authedProcedure
  .meta({ openapi: { method: 'GET', path: '/event-types', tags: ['events'], summary: 'Event types a webhook can subscribe to', protect: true } })
  .input(z.void())
  .output(z.object({ items: z.array(eventTypeInfo), next_cursor: z.null() }).meta({ id: 'EventTypeList' }))
  .query(() => ({
    items: EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type] })),
    next_cursor: null,
  }));
