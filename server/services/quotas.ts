import { and, count, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { apiKeys, invitations, passkeys, voiceConsents, webhooks } from '@/db/schema';
import { config } from '@/server/config';
import { AppError } from '@/server/errors';
import type { KeyOwner } from './keys/find-keys';

/**
 * Quotas: how many of a thing one network (or one key owner) may have at a time. Each is checked
 * inside the transaction that creates the thing, under a transaction-scoped advisory lock on the
 * quota's scope, so two creations racing for the last slot run one after the other: the second
 * counts the first's row (READ COMMITTED: each statement sees what committed before it) and is
 * refused. The lock serialises only creations of that one scope; it is released at COMMIT or ROLLBACK.
 *
 * Refusals are 409 `quota-exceeded`, never 429: waiting does not help, removing something does.
 */

/** The first key of the two-key advisory lock space for quotas (idempotency keys use 7_242_031). */
const QUOTA_LOCK_CLASS = 7_242_032;

async function lockScope(tx: Queryable, scope: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(QUOTA_LOCK_CLASS))}::int, hashtext(${scope}::text))`);
}

async function countRows(
  tx: Queryable,
  table: typeof webhooks | typeof invitations | typeof apiKeys | typeof passkeys | typeof voiceConsents,
  where: SQL | undefined,
): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

function exceeded(detail: string): AppError {
  return new AppError('quota-exceeded', detail);
}

/** Before a webhook subscription is created: a network has at most QUOTA_WEBHOOKS_PER_NETWORK (active or disabled). */
export async function reserveWebhookSlot({ tx, networkId }: { tx: Queryable; networkId: string }): Promise<void> {
  const limit = config().QUOTA_WEBHOOKS_PER_NETWORK;
  await lockScope(tx, `webhooks ${networkId}`);
  const existing = await countRows(tx, webhooks, and(eq(webhooks.networkId, networkId), isNull(webhooks.deletedAt)));
  if (existing >= limit) {
    throw exceeded(
      `This network has ${existing} webhook subscriptions, its quota (${limit}, QUOTA_WEBHOOKS_PER_NETWORK). ` +
        'Delete one it no longer needs (a disabled subscription counts too), or subscribe one endpoint to more event types.',
    );
  }
}

/** Before an invitation is created: a network has at most QUOTA_PENDING_INVITATIONS_PER_NETWORK pending (unexpired) ones. */
export async function reserveInvitationSlot({ tx, networkId }: { tx: Queryable; networkId: string }): Promise<void> {
  const limit = config().QUOTA_PENDING_INVITATIONS_PER_NETWORK;
  await lockScope(tx, `invitations ${networkId}`);
  const pending = await countRows(
    tx,
    invitations,
    and(eq(invitations.networkId, networkId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, sql`now()`)),
  );
  if (pending >= limit) {
    throw exceeded(
      `This network has ${pending} pending invitations, its quota (${limit}, QUOTA_PENDING_INVITATIONS_PER_NETWORK). ` +
        'Revoke invitations that will not be accepted, or wait until some are accepted or expire.',
    );
  }
}

/**
 * Before a voice consent is requested: a network has at most QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK
 * pending ones (their link still works). The lock is held to the end of the transaction, so the
 * caller's own checks of the network's pending consents run one request at a time too.
 */
export async function reserveVoiceConsentSlot({ tx, networkId }: { tx: Queryable; networkId: string }): Promise<void> {
  const limit = config().QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK;
  await lockScope(tx, `voice-consents ${networkId}`);
  const pending = await countRows(
    tx,
    voiceConsents,
    and(eq(voiceConsents.networkId, networkId), eq(voiceConsents.status, 'pending'), gt(voiceConsents.linkExpiresAt, sql`now()`)),
  );
  if (pending >= limit) {
    throw exceeded(
      `This network has ${pending} pending voice consent requests, its quota (${limit}, QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK). ` +
        'Revoke requests the hosts will not answer, or wait until they are decided or their links expire.',
    );
  }
}

/**
 * Before a key is created: one person or service account has at most QUOTA_API_KEYS_PER_OWNER active
 * keys (neither revoked, nor rotated away, nor expired).
 */
export async function reserveKeySlot({ tx, owner }: { tx: Queryable; owner: KeyOwner }): Promise<void> {
  const limit = config().QUOTA_API_KEYS_PER_OWNER;
  const ownedBy = 'userId' in owner ? eq(apiKeys.userId, owner.userId) : eq(apiKeys.serviceAccountId, owner.serviceAccountId);
  await lockScope(tx, `keys ${'userId' in owner ? owner.userId : owner.serviceAccountId}`);
  const active = await countRows(
    tx,
    apiKeys,
    and(ownedBy, isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))),
  );
  if (active >= limit) {
    throw exceeded(
      `The person or service account this key would belong to has ${active} active API keys, the quota of one owner (${limit}, QUOTA_API_KEYS_PER_OWNER). ` +
        'Revoke keys that are no longer used, then retry (rotating a key is not refused: it replaces one).',
    );
  }
}

/** A person has at most this many passkeys. */
export const MAX_PASSKEYS_PER_PERSON = 20;

/** Before a passkey is registered: a person has at most MAX_PASSKEYS_PER_PERSON. */
export async function reservePasskeySlot({ tx, userId }: { tx: Queryable; userId: string }): Promise<void> {
  await lockScope(tx, `passkeys ${userId}`);
  const existing = await countRows(tx, passkeys, eq(passkeys.userId, userId));
  if (existing >= MAX_PASSKEYS_PER_PERSON) {
    throw exceeded(`You have ${existing} passkeys, the most one person may have (${MAX_PASSKEYS_PER_PERSON}). Remove one you no longer use.`);
  }
}
