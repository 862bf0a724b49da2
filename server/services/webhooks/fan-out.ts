import { randomUUID } from 'node:crypto';
import { and, arrayContains, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import type { events } from '@/db/schema';
import { networks, webhookDeliveries, webhooks } from '@/db/schema';
import type { EventEnvelope, EventType } from '@/domain/events';
import { column } from '@/db/statement';
import { addJobsSql } from '@/server/jobs/enqueue';
import { deliveryJobSpecSql } from './delivery-job';

type EventRow = typeof events.$inferSelect;

/**
 * On the event's own transaction: one delivery per active subscription of the
 * network that wants this type, with its job. The envelope bytes are fixed
 * here, so every retry sends exactly the same body and delivery id.
 *
 * Two statements whatever the number of subscriptions: find them, then insert
 * every delivery and add every job (`graphile_worker.add_jobs`) at once.
 */
export async function fanOutEvent({ tx, event }: { tx: Tx; event: EventRow }): Promise<number> {
  const targets = await tx
    .select({ id: webhooks.id, mode: networks.mode })
    .from(webhooks)
    .innerJoin(networks, eq(networks.id, webhooks.networkId))
    .where(
      and(
        eq(webhooks.networkId, event.networkId),
        eq(webhooks.status, 'active'),
        isNull(webhooks.deletedAt),
        arrayContains(webhooks.events, [event.type]),
      ),
    );
  if (targets.length === 0) return 0;
  const occurredAt = event.occurredAt.toISOString();
  // A test network's deliveries say so, in the signed body and a header (docs/webhooks.md#test-deliveries).
  const test = targets[0]!.mode === 'test';
  const rows = targets.map((target) => {
    const id = randomUUID();
    const envelope: EventEnvelope = { id, type: event.type as EventType, occurred_at: occurredAt, data: event.data, ...(test ? { test } : {}) };
    return { id, webhook_id: target.id, body: JSON.stringify(envelope) };
  });
  const d = webhookDeliveries;
  await tx.execute(sql`
    with delivery as (
      insert into ${d} (${column(d.id)}, ${column(d.webhookId)}, ${column(d.networkId)}, ${column(d.eventId)}, ${column(d.eventType)}, ${column(d.test)}, ${column(d.body)})
      select r.id, r.webhook_id, ${event.networkId}, ${event.id}, ${event.type}, ${test}, r.body
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, webhook_id text, body text)
      returning ${d.id} as id
    )
    select count(*) from ${addJobsSql(sql`(select array_agg(${deliveryJobSpecSql({ deliveryId: sql`id`, networkId: sql`${event.networkId}::text` })}) from delivery)`)}`);
  return targets.length;
}
