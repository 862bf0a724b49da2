import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apiKeys, apiKeyScopes, invitations } from '@/db/schema';
import { recordAudit } from '@/server/services/audit/record-audit';
import type { KeyOwner } from './find-keys';

interface Withdrawal {
  owner: KeyOwner;
  networkId: string;
  actorKeyId: string;
  reason: 'member_removed' | 'member_demoted' | 'service_account_deleted';
}

/** `column in (the key and the keys it replaced by rotation)`: one credential's lineage. */
function ofKeyLineage(column: SQLWrapper, keyId: string): SQL {
  return sql`${column} in (
    with recursive lineage(id) as (
      select ${keyId}::text
      union
      select ${apiKeys.id} from ${apiKeys} join lineage on ${apiKeys.replacedByKeyId} = lineage.id)
    select id from lineage)`;
}

/** `column in (the owner's keys)`. */
function ofOwnerKeys(column: SQLWrapper, owner: KeyOwner): SQL {
  const byOwner = 'userId' in owner ? eq(apiKeys.userId, owner.userId) : eq(apiKeys.serviceAccountId, owner.serviceAccountId);
  return sql`${column} in (select ${apiKeys.id} from ${apiKeys} where ${byOwner})`;
}

/**
 * Removal is final for the network (invariant 7): every key of the owner loses
 * its scope there for good, so a re-invitation later brings a fresh key, never
 * these back. Keys keep working elsewhere; a key left with no scope still
 * identifies its owner (how a removed person proves who they are when invited
 * again). Audited per key, in the network.
 */
export async function cutKeysFromNetwork({ tx, ...w }: { tx: Tx } & Withdrawal): Promise<void> {
  const cut = await tx
    .delete(apiKeyScopes)
    .where(and(eq(apiKeyScopes.networkId, w.networkId), ofOwnerKeys(apiKeyScopes.keyId, w.owner)))
    .returning({ keyId: apiKeyScopes.keyId });
  await auditEachKey({ tx, withdrawal: w, changed: cut, action: 'api_key.scope_removed', data: { reason: w.reason } });
}

/** A demotion narrows the owner's keys on the network to read_only for good (promotion does not raise old keys). */
export async function lowerKeysInNetwork({ tx, ...w }: { tx: Tx } & Withdrawal): Promise<void> {
  const lowered = await tx
    .update(apiKeyScopes)
    .set({ role: 'read_only' })
    .where(and(eq(apiKeyScopes.networkId, w.networkId), eq(apiKeyScopes.role, 'administrator'), ofOwnerKeys(apiKeyScopes.keyId, w.owner)))
    .returning({ keyId: apiKeyScopes.keyId });
  await auditEachKey({ tx, withdrawal: w, changed: lowered, action: 'api_key.scope_lowered', data: { reason: w.reason, role: 'read_only' } });
}

/** One audit row per key a withdrawal changed, in its network, in key id order (the log reads the same on every run). */
async function auditEachKey({
  tx,
  withdrawal,
  changed,
  action,
  data,
}: {
  tx: Tx;
  withdrawal: Withdrawal;
  changed: Array<{ keyId: string }>;
  action: string;
  data: Record<string, unknown>;
}): Promise<void> {
  for (const { keyId } of [...changed].sort((a, b) => a.keyId.localeCompare(b.keyId))) {
    await recordAudit({
      tx,
      networkId: withdrawal.networkId,
      actorKeyId: withdrawal.actorKeyId,
      action,
      targetType: 'api_key',
      targetId: keyId,
      data,
    });
  }
}

/**
 * Invitations outlive no one: the pending invitations to the network that the
 * owner's keys sent are revoked once the owner no longer administers it.
 * (Acceptance checks the sender's standing too; this makes it visible.)
 */
export async function revokeInvitationsSentBy({ tx, ...w }: { tx: Tx } & Withdrawal): Promise<void> {
  await revokePendingInvitations({ tx, ...w, sentBy: ofOwnerKeys(invitations.createdByKeyId, w.owner) });
}

/**
 * Invitations die with their sender's key (invariant 8): the pending invitations to `networkIds`
 * that the key, or a key it replaced by rotation, sent are revoked with it, or once it loses the
 * network. (Acceptance checks the sending key too; this makes it visible.)
 */
export async function revokeInvitationsSentByKey({
  tx,
  keyId,
  networkIds,
  actorKeyId,
  reason,
}: {
  tx: Tx;
  keyId: string;
  networkIds: string[];
  actorKeyId: string;
  reason: 'api_key_revoked' | 'api_key_scope_removed';
}): Promise<void> {
  for (const networkId of [...networkIds].sort()) {
    await revokePendingInvitations({ tx, networkId, actorKeyId, reason, sentBy: ofKeyLineage(invitations.createdByKeyId, keyId) });
  }
}

async function revokePendingInvitations({
  tx,
  networkId,
  actorKeyId,
  reason,
  sentBy,
}: {
  tx: Tx;
  networkId: string;
  actorKeyId: string;
  reason: string;
  sentBy: SQL;
}): Promise<void> {
  const revoked = await tx
    .update(invitations)
    .set({ status: 'revoked', updatedAt: sql`now()` })
    .where(and(eq(invitations.networkId, networkId), eq(invitations.status, 'pending'), sentBy))
    .returning();
  for (const invitation of revoked.sort((a, b) => a.id.localeCompare(b.id))) {
    await recordAudit({
      tx,
      networkId,
      actorKeyId,
      action: 'invitation.revoked',
      targetType: 'invitation',
      targetId: invitation.id,
      data: { email: invitation.email, role: invitation.role, reason },
    });
  }
}
