import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { memberships } from '@/db/schema';
import { conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { modifiedConcurrently, updateVersioned, versionToWrite } from '@/server/services/optimistic-lock';
import { findMember, type MembershipRow, type MemberRecord } from './find-members';

/**
 * Before a membership changes: the member's credential lock, exclusively and before any row
 * (server/auth/credential-lock.ts `withdrawCredentialsOf`), so the change waits for their writes in
 * flight without holding the administrator rows they may need.
 */
async function withdrawMemberCredentials({ tx, networkId, memberId }: { tx: Tx; networkId: string; memberId: string }): Promise<void> {
  const [target] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.networkId, networkId), eq(memberships.id, memberId)));
  if (target) await withdrawCredentialsOf(tx, [target.userId]);
}

/**
 * Lock every active administrator row of the network (in id order, so two
 * writers never deadlock) and return their ids. A writer that had to wait
 * sees the rows as the winner committed them (Postgres re-checks the WHERE on
 * the new row versions), so "how many administrators remain" is never stale:
 * of two concurrent requests removing the last two administrators, one
 * succeeds and the other counts one remaining and is refused.
 */
async function lockActiveAdministrators({ tx, networkId }: { tx: Tx; networkId: string }): Promise<string[]> {
  const rows = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.networkId, networkId), eq(memberships.status, 'active'), eq(memberships.role, 'administrator')))
    .orderBy(asc(memberships.id))
    .for('update');
  return rows.map((r) => r.id);
}

/** Spec: removing (or demoting) the last active administrator of a network is refused with 409. */
export function assertNotLastAdministrator(member: MemberRecord, administratorIds: string[], change: 'remove' | 'demote'): void {
  const { membership } = member;
  if (membership.status !== 'active' || membership.role !== 'administrator') return;
  if (administratorIds.some((id) => id !== membership.id)) return;
  const who = member.user.email ?? member.user.name;
  throw conflict(
    `${who} is the last active administrator of this network, so they cannot be ${change === 'remove' ? 'removed' : 'demoted'}. ` +
      'Make another member an administrator first.',
  );
}

/**
 * The start of every change that can take administration away from a member (a demotion, a
 * removal), in the order that keeps "the last administrator" true under concurrency: the member's
 * credentials withdrawn, the network's active administrators locked, then the member read (404)
 * and the version the write is conditional on (the client's, or the one just read).
 */
export async function startMemberChange({
  tx,
  networkId,
  memberId,
  expectedVersion,
}: {
  tx: Tx;
  networkId: string;
  memberId: string;
  expectedVersion: number | undefined;
}): Promise<{ current: MemberRecord; administratorIds: string[]; version: number }> {
  await withdrawMemberCredentials({ tx, networkId, memberId });
  const administratorIds = await lockActiveAdministrators({ tx, networkId });
  const current = await findMember({ db: tx, networkId, memberId });
  if (!current) throw notFound('Member');
  return { current, administratorIds, version: versionToWrite('Member', current.membership.version, expectedVersion) };
}

/** The membership's write, conditional on `version`, and its audit row (`data` beside the person's id). */
export async function writeMemberChange({
  tx,
  current,
  version,
  set,
  actorKeyId,
  action,
  data,
}: {
  tx: Tx;
  current: MemberRecord;
  version: number;
  set: Partial<Pick<MembershipRow, 'role' | 'status'>>;
  actorKeyId: string;
  action: 'member.role_changed' | 'member.removed';
  data: Record<string, unknown>;
}): Promise<MemberRecord> {
  const { membership, user } = current;
  const [updated] = await updateVersioned({
    tx,
    table: memberships,
    networkId: membership.networkId,
    set,
    where: eq(memberships.id, membership.id),
    version,
  }).returning();
  if (!updated) throw modifiedConcurrently('Member');
  await recordAudit({
    tx,
    networkId: membership.networkId,
    actorKeyId,
    action,
    targetType: 'member',
    targetId: membership.id,
    data: { user_id: user.id, ...data },
  });
  return { membership: updated, user };
}
