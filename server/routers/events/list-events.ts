import type { events } from '@/db/schema';
import { paginate } from '@/server/http/pagination';
import { listEvents } from '@/server/services/events/list-events';
import type { EventType } from '@/domain/events';
import { networkProcedure } from '@/server/trpc';
import { iso, timeWindow } from '@/server/routers/shared.types';
import { listEventsInput, listEventsOutput } from './list-events.types';

export function presentEvent(row: typeof events.$inferSelect) {
  return { id: row.id, network_id: row.networkId, type: row.type as EventType, occurred_at: iso(row.occurredAt), data: row.data };
}

export const listEventsRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/events',
      tags: ['events'],
      summary: 'The network’s event log',
      description:
        'Every recorded event, oldest first (`order=desc`: newest first): use it to reconcile state a webhook may not have delivered. ' +
        'Filter by `type`, by the object an event is about (`object_id`) and by time (`since`, `until`, inclusive).',
      protect: true,
    },
  })
  .input(listEventsInput)
  .output(listEventsOutput)
  .query(({ ctx, input }) => {
    const window = timeWindow(input);
    const filter = { type: input.type, objectId: input.object_id, since: window.since, until: window.until };
    // The cursor belongs to this network, these filters and this order; JSON keeps the parts unambiguous.
    const scope = `events:${JSON.stringify([input.networkId, input.type ?? null, input.object_id ?? null, window.scope, input.order])}`;
    return paginate(
      input,
      scope,
      (after, take) => listEvents({ db: ctx.db, networkId: input.networkId, filter, afterId: after, take, order: input.order }),
      presentEvent,
    );
  });
