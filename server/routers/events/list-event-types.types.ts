import { z } from 'zod';
import { eventTypeSchema } from './list-events.types';

const eventTypeInfo = z.object({ type: eventTypeSchema, description: z.string() }).meta({ id: 'EventTypeInfo' });

export const listEventTypesInput = z.void();
export const eventTypeListSchema = z.object({ items: z.array(eventTypeInfo), next_cursor: z.null() }).meta({ id: 'EventTypeList' });
