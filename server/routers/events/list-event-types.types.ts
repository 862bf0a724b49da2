import { z } from 'zod';
import { timestamp } from '@/server/routers/shared.types';
import { eventTypeSchema } from './list-events.types';

export const eventEnvelopeSchema = z
  .object({
    id: z.string().meta({ description: 'The delivery id (a UUID), equal to X-Service-Delivery.' }),
    type: eventTypeSchema,
    occurred_at: timestamp,
    data: z.record(z.string(), z.unknown()).meta({ description: 'As the type’s `data_schema` describes.' }),
    test: z.literal(true).optional().meta({
      description:
        'Present (true) only on a test event sent with POST …/webhooks/{webhookId}/test and on every delivery of a test network (a sandbox).',
    }),
  })
  .meta({ id: 'EventEnvelope', description: 'The JSON body of a webhook delivery.' });

const eventTypeInfo = z
  .object({
    type: eventTypeSchema,
    description: z.string(),
    data_schema: z.record(z.string(), z.unknown()).meta({ description: 'JSON Schema (draft 2020-12) of the envelope’s `data` for this type.' }),
    example: eventEnvelopeSchema.meta({ description: 'An example delivery body of this type.' }),
  })
  .meta({ id: 'EventTypeInfo' });

export const listEventTypesInput = z.void();
export const eventTypeListSchema = z.object({ items: z.array(eventTypeInfo), next_cursor: z.null() }).meta({ id: 'EventTypeList' });
