import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { events } from '@/db/schema';
import { fanOutEvent } from '@/server/services/webhooks/fan-out';
import type { EventType } from './event-types';

export interface EventInput {
  networkId: string;
  type: EventType;
  /** Client-facing fields only: no vendor names, vendor ids or storage keys. */
  data: Record<string, unknown>;
}

/**
 * Record a domain event on the caller's transaction: it exists exactly when the
 * change that caused it commits. This is the one place events are written, and
 * so the one place webhook fan-out attaches.
 */
export async function recordEvent({ tx, ...input }: { tx: Tx } & EventInput) {
  const [row] = await tx
    .insert(events)
    .values({ id: newId('event'), networkId: input.networkId, type: input.type, data: input.data })
    .returning();
  await fanOutEvent({ tx, event: row! });
  return row!;
}
