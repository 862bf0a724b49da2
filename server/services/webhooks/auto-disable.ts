import { and, eq, exists, gt, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { webhookDeliveries, webhooks } from '@/db/schema';
import { recordAudit } from '@/server/services/audit/record-audit';
import { EVERY_NETWORK, updateVersioned } from '@/server/services/optimistic-lock';
import { config } from '@/server/config';
import { noticeWebhookDisabled } from '@/server/services/notifications/notices';

/** Days of nothing but failures after which a subscription is disabled (WEBHOOK_AUTO_DISABLE_DAYS). */
export function autoDisableDays(): number {
  return config().WEBHOOK_AUTO_DISABLE_DAYS;
}

/**
 * Cron: disable every active subscription whose deliveries have all failed for
 * `days` — a delivery created that long ago failed, and none has succeeded
 * since. The reason is visible in `disabled_reason` and in the audit log, and the network's
 * administrators are emailed (notification `webhook_disabled`); enabling it again (PATCH status
 * active) clears the reason.
 */
export async function autoDisableFailingWebhooks({ db, days = autoDisableDays() }: { db: Database; days?: number }): Promise<string[]> {
  const reason = `Every delivery failed for ${days} days; re-enable the subscription once the endpoint works.`;
  return db.transaction(async (tx) => {
    const d = webhookDeliveries;
    const since = sql`now() - make_interval(days => ${days})`;
    const disabled = await updateVersioned({
      tx,
      table: webhooks,
      networkId: EVERY_NETWORK,
      set: { status: 'disabled', disabledReason: reason },
      where: and(
        eq(webhooks.status, 'active'),
        isNull(webhooks.deletedAt),
        exists(
          tx
            .select({ one: sql`1` })
            .from(d)
            .where(and(eq(d.webhookId, webhooks.id), eq(d.status, 'failed'), lte(d.createdAt, since))),
        ),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(d)
            .where(and(eq(d.webhookId, webhooks.id), eq(d.status, 'succeeded'), gt(d.succeededAt, since))),
        ),
      ),
    }).returning({ id: webhooks.id, networkId: webhooks.networkId, url: webhooks.url });
    for (const row of disabled) {
      await recordAudit({
        tx,
        networkId: row.networkId,
        actorKeyId: null,
        action: 'webhook.auto_disabled',
        targetType: 'webhook',
        targetId: row.id,
        data: { reason },
      });
      await noticeWebhookDisabled({ tx, networkId: row.networkId, webhook: row, reason });
    }
    return disabled.map((r) => r.id);
  });
}
