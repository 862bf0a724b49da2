import type { events } from '@/db/schema';
import { paginate } from '@/server/http/pagination';
import { listEvents } from '@/server/services/events/list-events';
import type { EventType } from '@/domain/events';
import { networkProcedure } from '@/server/trpc';
import { iso } from '@/server/routers/shared.types';
import { listEventsInput, listEventsOutput } from './list-events.types';

function presentEvent(row: typeof events.$inferSelect) {
  return { id: row.id, network_id: row.networkId, type: row.type as EventType, occurred_at: iso(row.occurredAt), data: row.data };
}

export const listEventsRoute = networkProcedure('read_only')
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
      (after, take) => listEvents({ db: ctx.db, networkId: input.networkId, filter: { type: input.type }, afterId: after, take, order: input.order }),
      presentEvent,
    ),
  );
