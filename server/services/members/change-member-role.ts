import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { memberships } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { lowerKeysInNetwork, revokeInvitationsSentBy } from '@/server/services/keys/withdraw-access';
import { assertNotLastAdministrator, lockActiveAdministrators, withdrawMemberCredentials } from './administrators';
import { findMember, type MemberRecord } from './find-members';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';

export interface ChangeMemberRoleInput {
  networkId: string;
  memberId: string;
  role: Role;
  /** From If-Match or the body; undefined → lock on the version read here. */
  expectedVersion: number | undefined;
  actorKeyId: string;
}

/**
 * Change a member's role, optimistically locked. Demoting the last active
 * administrator is refused (409), safely under concurrency: the network's
 * administrator rows are locked before they are counted. A demotion also
 * lowers the person's keys here to read_only and revokes the invitations they
 * sent to this network, in the same transaction; a promotion raises no old key.
 */
export async function changeMemberRole({ tx, ...input }: { tx: Tx } & ChangeMemberRoleInput): Promise<MemberRecord> {
  await withdrawMemberCredentials({ tx, networkId: input.networkId, memberId: input.memberId });
  const administratorIds = await lockActiveAdministrators({ tx, networkId: input.networkId });
  const current = await findMember({ db: tx, networkId: input.networkId, memberId: input.memberId });
  if (!current) throw notFound('Member');
  const { membership } = current;
  const version = versionToWrite('Member', membership.version, input.expectedVersion);
  if (membership.status === 'removed') {
    throw conflict('This member has been removed from the network; invite them again to give them a role.');
  }
  if (membership.role === input.role) return current;
  if (input.role !== 'administrator') assertNotLastAdministrator(current, administratorIds, 'demote');

  const [updated] = await updateVersioned({
    tx,
    table: memberships,
    networkId: membership.networkId,
    set: { role: input.role },
    where: eq(memberships.id, membership.id),
    version,
  }).returning();
  if (!updated) throw modifiedConcurrently('Member');
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'member.role_changed',
    targetType: 'member',
    targetId: membership.id,
    data: { user_id: current.user.id, from: membership.role, to: input.role },
  });
  if (input.role === 'read_only') {
    const withdrawal = {
      owner: { userId: current.user.id },
      networkId: input.networkId,
      actorKeyId: input.actorKeyId,
      reason: 'member_demoted',
    } as const;
    await lowerKeysInNetwork({ tx, ...withdrawal });
    await revokeInvitationsSentBy({ tx, ...withdrawal });
  }
  return { membership: updated, user: current.user };
}
