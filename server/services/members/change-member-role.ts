import type { Tx } from '@/db/client';
import type { Role } from '@/domain/roles';
import { conflict } from '@/server/errors';
import { lowerKeysInNetwork, revokeInvitationsSentBy } from '@/server/services/keys/withdraw-access';
import { assertNotLastAdministrator, startMemberChange, writeMemberChange } from './administrators';
import type { MemberRecord } from './find-members';

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
  const { current, administratorIds, version } = await startMemberChange({ tx, ...input });
  const { membership } = current;
  if (membership.status === 'removed') {
    throw conflict('This member has been removed from the network; invite them again to give them a role.');
  }
  if (membership.role === input.role) return current;
  if (input.role !== 'administrator') assertNotLastAdministrator(current, administratorIds, 'demote');

  const changed = await writeMemberChange({
    tx,
    current,
    version,
    set: { role: input.role },
    actorKeyId: input.actorKeyId,
    action: 'member.role_changed',
    data: { from: membership.role, to: input.role },
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
  return changed;
}
