import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { memberships } from '@/db/schema';
import { notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { cutKeysFromNetwork, revokeInvitationsSentBy } from '@/server/services/keys/withdraw-access';
import { assertNotLastAdministrator, lockActiveAdministrators, withdrawMemberCredentials } from './administrators';
import { findMember, type MemberRecord } from './find-members';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';

export interface RemoveMemberInput {
  networkId: string;
  memberId: string;
  expectedVersion: number | undefined;
  actorKeyId: string;
}

/**
 * Mark a membership removed, and make it final for this network in the same
 * transaction: every key of the person loses its scope here (a key left with
 * none is revoked) and their pending invitations to it are revoked. A
 * re-invitation later brings a fresh key, never these back. Removing an
 * already removed member changes nothing and answers it as it is (DELETE is
 * idempotent).
 */
export async function removeMember({ tx, ...input }: { tx: Tx } & RemoveMemberInput): Promise<MemberRecord> {
  await withdrawMemberCredentials({ tx, networkId: input.networkId, memberId: input.memberId });
  const administratorIds = await lockActiveAdministrators({ tx, networkId: input.networkId });
  const current = await findMember({ db: tx, networkId: input.networkId, memberId: input.memberId });
  if (!current) throw notFound('Member');
  const { membership } = current;
  const version = versionToWrite('Member', membership.version, input.expectedVersion);
  if (membership.status === 'removed') return current;
  assertNotLastAdministrator(current, administratorIds, 'remove');

  const [updated] = await updateVersioned({
    tx,
    table: memberships,
    networkId: membership.networkId,
    set: { status: 'removed' },
    where: eq(memberships.id, membership.id),
    version,
  }).returning();
  if (!updated) throw modifiedConcurrently('Member');
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'member.removed',
    targetType: 'member',
    targetId: membership.id,
    data: { user_id: current.user.id, role: membership.role },
  });
  const withdrawal = {
    owner: { userId: current.user.id },
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    reason: 'member_removed',
  } as const;
  await cutKeysFromNetwork({ tx, ...withdrawal });
  await revokeInvitationsSentBy({ tx, ...withdrawal });
  return { membership: updated, user: current.user };
}
