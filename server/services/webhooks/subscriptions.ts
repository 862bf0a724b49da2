import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Queryable, Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { webhookDeliveries, webhooks } from '@/db/schema';
import { conflict, notFound } from '@/server/errors';
import { sealSecret } from '@/server/secrets';
import { recordAudit } from '@/server/services/audit/record-audit';
import { reserveWebhookSlot } from '@/server/services/quotas';
import type { EventType } from '@/domain/events';
import { deliveryJobSql } from './delivery-job';
import { assertDeliverableUrl, webhookUrlPolicy } from './ssrf';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';
import { networkRow } from '@/server/services/page';

export { webhookUrlPolicy };

export type WebhookRow = typeof webhooks.$inferSelect;

export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret';

/** 400 (path `url`) unless the URL is an allowed delivery target. Resolves DNS: call it outside a transaction. */
export async function checkWebhookUrl(url: string): Promise<void> {
  await assertDeliverableUrl(url, webhookUrlPolicy());
}

/** `whsec_` + 32 random bytes, base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function auditData(row: WebhookRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { url: row.url, events: row.events, status: row.status, ...extra };
}

/** One live (not deleted) subscription of the network, or undefined (also for another network's id). */
export async function findWebhook({
  db,
  networkId,
  webhookId,
  lock,
}: {
  db: Queryable;
  networkId: string;
  webhookId: string;
  lock?: 'update';
}): Promise<WebhookRow | undefined> {
  return networkRow(webhooks, { db, networkId, id: webhookId, lock }, [isNull(webhooks.deletedAt)]);
}

/** 404 unless the subscription is a live one of this network. */
export async function requireWebhook({ db, networkId, webhookId, lock }: { db: Queryable; networkId: string; webhookId: string; lock?: 'update' }) {
  const hook = await findWebhook({ db, networkId, webhookId, lock });
  if (!hook) throw notFound('Webhook');
  return hook;
}

/** A disabled subscription sends nothing, so a redelivery would wait forever: refuse it. */
export async function requireActiveWebhook({ db, networkId, webhookId }: { db: Queryable; networkId: string; webhookId: string }) {
  const hook = await requireWebhook({ db, networkId, webhookId });
  if (hook.status !== 'active')
    throw conflict('The webhook subscription is disabled; enable it (PATCH status: active) before sending deliveries again.');
  return hook;
}

export interface CreateWebhookInput {
  networkId: string;
  url: string;
  events: EventType[];
  description?: string | null | undefined;
  actorKeyId: string;
}

/**
 * Create a subscription with a fresh signing secret, within the network's quota
 * (QUOTA_WEBHOOKS_PER_NETWORK). Only the sealed secret is stored; the plain
 * secret is returned here, once. The URL must have been checked
 * (`checkWebhookUrl`) before.
 */
export async function createWebhook({ tx, ...input }: { tx: Tx } & CreateWebhookInput): Promise<{ row: WebhookRow; secret: string }> {
  await reserveWebhookSlot({ tx, networkId: input.networkId });
  const secret = generateWebhookSecret();
  const [row] = await tx
    .insert(webhooks)
    .values({
      id: newId('webhook'),
      networkId: input.networkId,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secretSealed: sealSecret(WEBHOOK_SECRET_PURPOSE, secret),
    })
    .returning();
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'webhook.created',
    targetType: 'webhook',
    targetId: row!.id,
    data: auditData(row!),
  });
  return { row: row!, secret };
}

export interface WebhookChanges {
  url?: string;
  events?: EventType[];
  description?: string | null;
  status?: 'active' | 'disabled';
}

/**
 * Optimistically locked update. Setting `status: active` clears
 * `disabled_reason` and resumes the deliveries left pending while the
 * subscription was disabled (their jobs ran, found it disabled and stopped);
 * disabling through the API records no reason (that field explains automatic
 * disabling). A request that changes nothing answers the subscription as it is.
 */
export async function updateWebhook({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  webhookId: string;
  changes: WebhookChanges;
  expectedVersion: number | undefined;
  actorKeyId: string;
}): Promise<WebhookRow> {
  const current = await requireWebhook({ db: tx, networkId: input.networkId, webhookId: input.webhookId });
  const version = versionToWrite('Webhook', current.version, input.expectedVersion);
  const changed = Object.keys(input.changes);
  if (changed.length === 0) return current;
  const set: Partial<typeof webhooks.$inferInsert> = { ...input.changes };
  if (input.changes.status === 'active') set.disabledReason = null;
  const row = await writeWebhookChange({
    tx,
    current,
    version,
    set,
    actorKeyId: input.actorKeyId,
    action: 'webhook.updated',
    extra: { changed: changed.sort() },
  });
  if (current.status === 'disabled' && row.status === 'active') await resumePendingDeliveries(tx, row.networkId, row.id);
  return row;
}

/**
 * The write of a live subscription, conditional on `version` (409 when another write came first),
 * and its audit row (the subscription as written, and `extra`) on the same transaction.
 */
async function writeWebhookChange({
  tx,
  current,
  version,
  set,
  actorKeyId,
  action,
  extra,
}: {
  tx: Tx;
  current: WebhookRow;
  version: number;
  set: PgUpdateSetSource<typeof webhooks>;
  actorKeyId: string;
  action: 'webhook.updated' | 'webhook.deleted';
  extra?: Record<string, unknown>;
}): Promise<WebhookRow> {
  const [row] = await updateVersioned({
    tx,
    table: webhooks,
    networkId: current.networkId,
    set,
    where: and(eq(webhooks.id, current.id), isNull(webhooks.deletedAt)),
    version,
  }).returning();
  if (!row) throw modifiedConcurrently('Webhook');
  await recordAudit({ tx, networkId: row.networkId, actorKeyId, action, targetType: 'webhook', targetId: row.id, data: auditData(row, extra) });
  return row;
}

/**
 * One job per pending delivery of the subscription, in one statement; the job
 * key means a delivery that still has a job (a scheduled retry) keeps one.
 */
async function resumePendingDeliveries(tx: Tx, networkId: string, webhookId: string): Promise<void> {
  await tx.execute(sql`
    select ${deliveryJobSql({ deliveryId: sql`d.id`, networkId: sql`d.network_id` }, { jobKeyMode: 'preserve_run_at' })}
    from ${webhookDeliveries} d
    where d.network_id = ${networkId} and d.webhook_id = ${webhookId} and d.status = 'pending'`);
}

/** Soft delete: the subscription stops receiving events, is not listed, and reads answer 404. */
export async function deleteWebhook({
  tx,
  ...input
}: {
  tx: Tx;
  networkId: string;
  webhookId: string;
  expectedVersion: number | undefined;
  actorKeyId: string;
}): Promise<WebhookRow> {
  const current = await requireWebhook({ db: tx, networkId: input.networkId, webhookId: input.webhookId });
  const version = versionToWrite('Webhook', current.version, input.expectedVersion);
  return writeWebhookChange({ tx, current, version, set: { deletedAt: sql`now()` }, actorKeyId: input.actorKeyId, action: 'webhook.deleted' });
}
