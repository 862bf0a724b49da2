import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { memberships } from '../../../db/schema';
import { notFound } from '../../errors';
import { recordAudit } from '../audit/record-audit';
import { cutKeysFromNetwork, revokeInvitationsSentBy } from '../keys/withdraw-access';
import { assertNotLastAdministrator, lockActiveAdministrators } from './administrators';
import { findMember, type MemberRecord } from './find-members';
import { versionToWrite, modifiedConcurrently } from '../optimistic-lock';

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
export async function removeMember(tx: Tx, input: RemoveMemberInput): Promise<MemberRecord> {
  const administratorIds = await lockActiveAdministrators(tx, input.networkId);
  const current = await findMember(tx, input.networkId, input.memberId);
  if (!current) throw notFound('Member');
  const { membership } = current;
  const version = versionToWrite('Member', membership.version, input.expectedVersion);
  if (membership.status === 'removed') return current;
  assertNotLastAdministrator(current, administratorIds, 'remove');

  const [updated] = await tx
    .update(memberships)
    .set({ status: 'removed', version: sql`${memberships.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(memberships.id, membership.id), eq(memberships.version, version)))
    .returning();
  if (!updated) throw modifiedConcurrently('Member');
  await recordAudit(tx, {
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'member.removed',
    targetType: 'member',
    targetId: membership.id,
    data: { user_id: current.user.id, role: membership.role },
  });
  const withdrawal = { owner: { userId: current.user.id }, networkId: input.networkId, actorKeyId: input.actorKeyId, reason: 'member_removed' } as const;
  await cutKeysFromNetwork(tx, withdrawal);
  await revokeInvitationsSentBy(tx, withdrawal);
  return { membership: updated, user: current.user };
}
