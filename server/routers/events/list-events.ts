import type { events } from '../../../db/schema';
import { paginate } from '../../http/pagination';
import { listEvents as findEvents } from '../../services/events/list-events';
import type { EventType } from '../../services/events/event-types';
import { networkProcedure } from '../../trpc';
import { iso } from '../shared.types';
import { listEventsInput, listEventsOutput } from './list-events.types';

function presentEvent(row: typeof events.$inferSelect) {
  return { id: row.id, network_id: row.networkId, type: row.type as EventType, occurred_at: iso(row.occurredAt), data: row.data };
}

export const listEvents = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/events',
      tags: ['events'],
      summary: 'The network’s event log',
      description: 'Every recorded event, oldest first (`order=desc`: newest first): use it to reconcile state a webhook may not have delivered.',
      protect: true,
    },
  })
  .input(listEventsInput)
  .output(listEventsOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `events:${input.networkId}:${input.type ?? ''}:${input.order}`,
      (after, take) => findEvents(ctx.db, input.networkId, { type: input.type }, after, take, input.order),
      presentEvent,
    ),
  );
