import { eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { webhooks } from '@/db/schema';
import { sealSecret } from '@/server/secrets';
import { recordAudit } from '@/server/services/audit/record-audit';
import { generateWebhookSecret, requireWebhook, WEBHOOK_SECRET_PURPOSE, type WebhookRow } from './subscriptions';
import { updateVersioned } from '@/server/services/optimistic-lock';

/** How long deliveries carry the old secret's signature too, after a rotation. */
export const ROTATION_OVERLAP_HOURS = 24;

/**
 * Replace the signing secret. For the next 24 h every delivery carries both
 * signatures (new first, comma separated), so a receiver can switch when it
 * likes; a second rotation within that window drops the oldest secret.
 */
export async function rotateWebhookSecret({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  webhookId: string;
  actorKeyId: string;
}): Promise<{ row: WebhookRow; secret: string }> {
  const current = await requireWebhook({ db: tx, networkId: input.networkId, webhookId: input.webhookId, lock: 'update' });
  const secret = generateWebhookSecret();
  const [row] = await updateVersioned({
    tx,
    table: webhooks,
    networkId: current.networkId,
    set: {
      secretSealed: sealSecret(WEBHOOK_SECRET_PURPOSE, secret),
      previousSecretSealed: current.secretSealed,
      previousSecretExpiresAt: sql`now() + make_interval(hours => ${ROTATION_OVERLAP_HOURS})`,
    },
    where: eq(webhooks.id, current.id),
  }).returning();
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'webhook.secret_rotated',
    targetType: 'webhook',
    targetId: current.id,
    data: { overlap_hours: ROTATION_OVERLAP_HOURS },
  });
  return { row: row!, secret };
}
