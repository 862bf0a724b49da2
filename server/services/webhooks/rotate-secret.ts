import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { webhooks } from '../../../db/schema';
import { notFound } from '../../errors';
import { sealSecret } from '../../secrets';
import { recordAudit } from '../audit/record-audit';
import { findWebhook, generateWebhookSecret, WEBHOOK_SECRET_PURPOSE, type WebhookRow } from './subscriptions';

/** How long deliveries carry the old secret's signature too, after a rotation. */
export const ROTATION_OVERLAP_HOURS = 24;

/**
 * Replace the signing secret. For the next 24 h every delivery carries both
 * signatures (new first, comma separated), so a receiver can switch when it
 * likes; a second rotation within that window drops the oldest secret.
 */
export async function rotateWebhookSecret(
  tx: Tx,
  input: { networkId: string; webhookId: string; actorKeyId: string },
): Promise<{ row: WebhookRow; secret: string }> {
  const current = await findWebhook(tx, input.networkId, input.webhookId, 'update');
  if (!current) throw notFound('Webhook');
  const secret = generateWebhookSecret();
  const [row] = await tx
    .update(webhooks)
    .set({
      secretSealed: sealSecret(WEBHOOK_SECRET_PURPOSE, secret),
      previousSecretSealed: current.secretSealed,
      previousSecretExpiresAt: sql`now() + make_interval(hours => ${ROTATION_OVERLAP_HOURS})`,
      version: sql`${webhooks.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(webhooks.id, current.id))
    .returning();
  await recordAudit(tx, {
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'webhook.secret_rotated',
    targetType: 'webhook',
    targetId: current.id,
    data: { overlap_hours: ROTATION_OVERLAP_HOURS },
  });
  return { row: row!, secret };
}
