import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { auditLog, webhooks } from '@/db/schema';
import { autoDisableFailingWebhooks } from '@/server/services/webhooks/auto-disable';
import { createNetworkRow, deliveryRow, eventRow, useTestDatabase, webhookRow } from './support/fixtures';

useTestDatabase();

/** A subscription with one delivery of the given status, created `daysAgo` days ago. TEST-NET URL: nothing is sent. */
async function hookWithDelivery(status: 'failed' | 'succeeded', daysAgo: number, extra?: { status: 'failed' | 'succeeded'; daysAgo: number }) {
  const network = await createNetworkRow();
  const hook = await webhookRow(network.id);
  for (const d of [{ status, daysAgo }, ...(extra ? [extra] : [])]) {
    const at = sql`now() - make_interval(days => ${d.daysAgo})`;
    await deliveryRow(
      network.id,
      { webhookId: hook.id, eventId: (await eventRow(network.id)).id },
      { status: d.status, createdAt: at, succeededAt: d.status === 'succeeded' ? at : null },
    );
  }
  return hook;
}

describe('auto-disable of failing subscriptions', () => {
  it('disables a subscription whose deliveries have all failed for 5 days, with a reason and an audit row', async () => {
    const failing = await hookWithDelivery('failed', 6);
    const recent = await hookWithDelivery('failed', 2);
    const recovered = await hookWithDelivery('failed', 6, { status: 'succeeded', daysAgo: 1 });
    const disabled = await autoDisableFailingWebhooks({ db: database(), days: 5 });
    expect(disabled).toContain(failing.id);
    expect(disabled).not.toContain(recent.id);
    expect(disabled).not.toContain(recovered.id);
    const [row] = await database().select().from(webhooks).where(eq(webhooks.id, failing.id));
    expect(row).toMatchObject({ status: 'disabled', version: 2 });
    expect(row!.disabledReason).toMatch(/failed for 5 days/);
    const audit = await database()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, failing.id), eq(auditLog.action, 'webhook.auto_disabled')));
    expect(audit).toHaveLength(1);
    expect(await autoDisableFailingWebhooks({ db: database(), days: 5 })).not.toContain(failing.id);
  });
});
