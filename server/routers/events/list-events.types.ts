import { z } from 'zod';
import { listParams, orderParam, pageOf } from '@/server/http/page';
import { EVENT_TYPE_NAMES } from '@/domain/events';
import { idField, networkParam, sinceNotAfterUntil, textFilter, timeRange, timestamp } from '@/server/routers/shared.types';

export const eventTypeSchema = z.enum(EVENT_TYPE_NAMES).meta({ id: 'EventType' });

export const eventSchema = z
  .object({
    id: idField('evt'),
    network_id: idField('net'),
    type: eventTypeSchema,
    occurred_at: timestamp,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });

export const listEventsInput = z
  .strictObject({
    ...networkParam,
    ...listParams,
    type: eventTypeSchema.optional().meta({ description: 'Only events of this type.' }),
    object_id: textFilter(
      'object_id',
      'Only events about this object: its id is one of the fields of `data` (an offer, creative, podcast, invitation…).',
    ),
    ...timeRange('events that occurred'),
    ...orderParam,
  })
  .refine(...sinceNotAfterUntil);

export const listEventsOutput = pageOf(eventSchema).meta({ id: 'EventList' });

export const getEventInput = z.strictObject({ ...networkParam, eventId: z.string().min(1).meta({ description: 'Event id (evt_…).' }) });
