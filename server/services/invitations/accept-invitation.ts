import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { newId } from '../../../db/ids';
import { invitations, memberships, users } from '../../../db/schema';
import type { KeyEnvironment } from '../../auth/tokens';
import { hashToken } from '../../auth/tokens';
import { conflict, unauthorized } from '../../errors';
import { recordAudit } from '../audit/record-audit';
import { recordEvent } from '../events/record-event';
import { mintApiKey } from '../keys/mint-api-key';
import type { MemberRecord } from '../members/find-members';
import { invitationStatus } from './find-invitations';

export const INVITATION_TOKEN_PATTERN = /^inv_[0-9A-Za-z]{40}$/;

export interface AcceptInvitationInput {
  /** The bearer credential: the invitation token itself. */
  token: string | undefined;
  /** Display name for a person we do not know yet; an existing person keeps theirs. */
  name?: string | undefined;
  keyName?: string | undefined;
  environment: KeyEnvironment;
}

/**
 * Accept an invitation, all in one transaction: the person (created if no
 * user has the email), the membership (created, or a removed one reactivated
 * with the invited role), the invitation marked accepted, the person's first
 * API key, the `invitation.accepted` event and the audit rows. The invitation
 * row is locked first, so of two concurrent acceptances exactly one wins.
 */
export async function acceptInvitation(tx: Tx, input: AcceptInvitationInput) {
  if (input.token === undefined) throw unauthorized('Missing invitation token. Send "Authorization: Bearer inv_…" with the token from the invitation.');
  if (!INVITATION_TOKEN_PATTERN.test(input.token)) throw unauthorized('Malformed invitation token.');
  const [invitation] = await tx
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashToken(input.token)))
    .for('update');
  if (!invitation) throw unauthorized('Invalid invitation token.');
  const status = invitationStatus(invitation);
  if (status === 'accepted') throw conflict('This invitation has already been accepted; each invitation can be used once.');
  if (status === 'revoked') throw conflict('This invitation has been revoked. Ask a network administrator for a new one.');
  if (status === 'expired') throw conflict('This invitation has expired. Ask a network administrator for a new one.');

  // Concurrent acceptances of different invitations for one email must not collide on the unique email.
  await tx
    .insert(users)
    .values({ id: newId('user'), email: invitation.email, name: input.name ?? invitation.email.split('@')[0]! })
    .onConflictDoNothing({ target: users.email });
  const [user] = await tx
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.email, invitation.email));

  const [inserted] = await tx
    .insert(memberships)
    .values({ id: newId('membership'), networkId: invitation.networkId, userId: user!.id, role: invitation.role })
    .onConflictDoNothing({ target: [memberships.networkId, memberships.userId] })
    .returning();
  let membership = inserted;
  const reactivated = !inserted;
  if (!membership) {
    const [existing] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.networkId, invitation.networkId), eq(memberships.userId, user!.id)))
      .for('update');
    if (existing!.status === 'active') {
      throw conflict(`${invitation.email} is already an active member of this network; an administrator can change their role instead.`);
    }
    [membership] = await tx
      .update(memberships)
      .set({ status: 'active', role: invitation.role, version: sql`${memberships.version} + 1`, updatedAt: sql`now()` })
      .where(eq(memberships.id, existing!.id))
      .returning();
  }
  membership = membership!;

  const [accepted] = await tx
    .update(invitations)
    .set({ status: 'accepted', acceptedAt: sql`now()`, acceptedUserId: user!.id, updatedAt: sql`now()` })
    .where(eq(invitations.id, invitation.id))
    .returning();
  const scopes = [{ networkId: invitation.networkId, role: membership.role }];
  const { key, token } = await mintApiKey(tx, {
    name: input.keyName ?? 'first key',
    environment: input.environment,
    owner: { userId: user!.id },
    scopes,
  });

  const data = { invitation_id: invitation.id, member_id: membership.id, user_id: user!.id, email: invitation.email, role: membership.role };
  await recordEvent(tx, { networkId: invitation.networkId, type: 'invitation.accepted', data });
  await recordAudit(tx, {
    networkId: invitation.networkId,
    actorKeyId: null,
    action: 'invitation.accepted',
    targetType: 'invitation',
    targetId: invitation.id,
    data: { ...data, reactivated },
  });
  await recordAudit(tx, {
    networkId: invitation.networkId,
    actorKeyId: null,
    action: 'api_key.created',
    targetType: 'api_key',
    targetId: key.id,
    data: { key_name: key.name, owner: { type: 'person', id: user!.id }, scopes: [{ network_id: invitation.networkId, role: membership.role }] },
  });
  const member: MemberRecord = { membership, user: user! };
  return { invitation: accepted!, member, key, token, scopes };
}
