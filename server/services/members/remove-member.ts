import type { Tx } from '@/db/client';
import { cutKeysFromNetwork, revokeInvitationsSentBy } from '@/server/services/keys/withdraw-access';
import { assertNotLastAdministrator, startMemberChange, writeMemberChange } from './administrators';
import type { MemberRecord } from './find-members';

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
  const { current, administratorIds, version } = await startMemberChange({ tx, ...input });
  if (current.membership.status === 'removed') return current;
  assertNotLastAdministrator(current, administratorIds, 'remove');

  const removed = await writeMemberChange({
    tx,
    current,
    version,
    set: { status: 'removed' },
    actorKeyId: input.actorKeyId,
    action: 'member.removed',
    data: { role: current.membership.role },
  });
  const withdrawal = {
    owner: { userId: current.user.id },
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    reason: 'member_removed',
  } as const;
  await cutKeysFromNetwork({ tx, ...withdrawal });
  await revokeInvitationsSentBy({ tx, ...withdrawal });
  return removed;
}
