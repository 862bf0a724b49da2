import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { recordAudit } from '../audit/record-audit';

/** Days of nothing but failures after which a subscription is disabled (WEBHOOK_AUTO_DISABLE_DAYS). */
export function autoDisableDays(): number {
  const n = Number(process.env.WEBHOOK_AUTO_DISABLE_DAYS ?? 5);
  return Number.isFinite(n) && n > 0 ? n : 5;
}

/**
 * Cron: disable every active subscription whose deliveries have all failed for
 * `days` — a delivery created that long ago failed, and none has succeeded
 * since. The reason is visible in `disabled_reason` and in the audit log;
 * enabling it again (PATCH status active) clears the reason.
 */
export async function autoDisableFailingWebhooks(db: Database, days = autoDisableDays()): Promise<string[]> {
  const reason = `Every delivery failed for ${days} days; re-enable the subscription once the endpoint works.`;
  return db.transaction(async (tx) => {
    const disabled = await tx.execute<{ id: string; network_id: string }>(sql`
      update webhooks w
      set status = 'disabled', disabled_reason = ${reason}, version = w.version + 1, updated_at = now()
      where w.status = 'active' and w.deleted_at is null
        and exists (
          select 1 from webhook_deliveries d
          where d.webhook_id = w.id and d.status = 'failed'
            and d.created_at <= now() - make_interval(days => ${days}))
        and not exists (
          select 1 from webhook_deliveries d
          where d.webhook_id = w.id and d.status = 'succeeded'
            and d.succeeded_at > now() - make_interval(days => ${days}))
      returning w.id, w.network_id`);
    for (const row of disabled) {
      await recordAudit(tx, {
        networkId: row.network_id,
        actorKeyId: null,
        action: 'webhook.auto_disabled',
        targetType: 'webhook',
        targetId: row.id,
        data: { reason },
      });
    }
    return disabled.map((r) => r.id);
  });
}
