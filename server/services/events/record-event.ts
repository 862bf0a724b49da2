import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { events } from '@/db/schema';
import { fanOutEvent } from '@/server/services/webhooks/fan-out';
import { EVENT_DATA_SCHEMAS, type EventData, type EventType } from '@/domain/events';

export interface EventInput<T extends EventType = EventType> {
  networkId: string;
  type: T;
  /** Client-facing fields only (no vendor names, vendor ids or storage keys), as the type's catalog schema says. */
  data: EventData<T>;
}

/**
 * Record a domain event on the caller's transaction: it exists exactly when the
 * change that caused it commits. This is the one place events are written, and
 * so the one place webhook fan-out attaches. `data` is parsed with the type's
 * schema (the one GET /event-types publishes): a drifted emitter fails here, not at a subscriber.
 */
export async function recordEvent<T extends EventType>({ tx, ...input }: { tx: Tx } & EventInput<T>) {
  const data = EVENT_DATA_SCHEMAS[input.type].parse(input.data) as Record<string, unknown>;
  const [row] = await tx
    .insert(events)
    .values({ id: newId('event'), networkId: input.networkId, type: input.type, data })
    .returning();
  await fanOutEvent({ tx, event: row! });
  return row!;
}
