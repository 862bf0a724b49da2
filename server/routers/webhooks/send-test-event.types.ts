import { z } from 'zod';
import { EVENT_TYPE_NAMES } from '@/domain/events';
import { webhookParams } from './webhook.types';

export const sendTestEventInput = z.strictObject({
  ...webhookParams,
  event_type: z
    .enum(EVENT_TYPE_NAMES, { error: `event_type is required and must be one of: ${EVENT_TYPE_NAMES.join(', ')}.` })
    .meta({ description: 'Which type’s example envelope to send (see GET /event-types).' }),
});
