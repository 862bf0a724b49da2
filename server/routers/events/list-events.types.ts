import { z } from 'zod';
import { listParams, pageOf } from '@/server/http/page';
import { EVENT_TYPE_NAMES } from '@/domain/events';
import { idField, networkParam, timestamp } from '@/server/routers/shared.types';

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

export const listEventsInput = z.strictObject({
  ...networkParam,
  ...listParams,
  type: eventTypeSchema.optional().meta({ description: 'Only events of this type.' }),
  order: z
    .enum(['asc', 'desc'], { error: 'order must be asc or desc.' })
    .default('asc')
    .meta({ description: 'asc: oldest first (default); desc: newest first.' }),
});

export const listEventsOutput = pageOf(eventSchema).meta({ id: 'EventList' });
