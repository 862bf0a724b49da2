import type { Tx } from '@/db/client';
import type { Principal } from '@/server/auth/principal';
import { roleAtLeast, type Role } from '@/domain/roles';
import { badRequest, conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { findMember } from './find-members';

export interface MintMemberKeyInput {
  networkId: string;
  memberId: string;
  name: string;
  /** Defaults to the member's role; never above it. */
  role?: Role | undefined;
  expiresAt?: Date | undefined;
}

/**
 * An administrator mints a key for a person who is a member of the network,
 * scoped to that one network. The key is the person's: it follows their
 * membership (removal or demotion narrows it on the next request).
 */
export async function mintMemberKey({ tx, creator, ...input }: { tx: Tx; creator: Principal } & MintMemberKeyInput) {
  const member = await findMember({ db: tx, networkId: input.networkId, memberId: input.memberId });
  if (!member) throw notFound('Member');
  if (member.membership.status !== 'active') {
    throw conflict('This member has been removed from the network; a key for them would not work here.');
  }
  const role = input.role ?? member.membership.role;
  if (!roleAtLeast(member.membership.role, role)) {
    throw badRequest(`role must not exceed the member's role (${member.membership.role}).`, [
      { path: 'role', message: `The member holds ${member.membership.role}; a key for them cannot have ${role}.` },
    ]);
  }
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw badRequest('expires_at must be in the future.', [{ path: 'expires_at', message: 'expires_at must be in the future.' }]);
  }
  const scopes = [{ networkId: input.networkId, role }];
  const { key, token } = await mintApiKey({
    tx,
    name: input.name,
    owner: { userId: member.user.id },
    creator,
    scopes,
    expiresAt: input.expiresAt ?? null,
  });
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: creator.keyId,
    action: 'api_key.created',
    targetType: 'api_key',
    targetId: key.id,
    data: {
      key_name: key.name,
      owner: { type: 'person', id: member.user.id },
      member_id: member.membership.id,
      scopes: [{ network_id: input.networkId, role }],
    },
  });
  return { key, token, scopes };
}
