import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { memberships } from '@/db/schema';
import { conflict } from '@/server/errors';
import type { MemberRecord } from './find-members';

/**
 * Before a membership changes: the member's credential lock, exclusively and before any row
 * (server/auth/credential-lock.ts `withdrawCredentialsOf`), so the change waits for their writes in
 * flight without holding the administrator rows they may need.
 */
export async function withdrawMemberCredentials({ tx, networkId, memberId }: { tx: Tx; networkId: string; memberId: string }): Promise<void> {
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
export async function lockActiveAdministrators({ tx, networkId }: { tx: Tx; networkId: string }): Promise<string[]> {
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
