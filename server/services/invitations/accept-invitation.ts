import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { apiKeyAccess, apiKeys, invitations, memberships, users } from '@/db/schema';
import { holdCredentialOfKey } from '@/server/auth/credential-lock';
import type { Principal } from '@/server/auth/principal';
import type { KeyEnvironment } from '@/server/auth/tokens';
import { hashToken } from '@/server/auth/tokens';
import { conflict, forbidden, unauthorized } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { recordEvent } from '@/server/services/events/record-event';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import type { MemberRecord } from '@/server/services/members/find-members';
import { invitationStatus, type InvitationRow } from './find-invitations';
import { updateVersioned } from '@/server/services/optimistic-lock';
import { noticeInvitationAccepted } from '@/server/services/notifications/notices';

export interface AcceptInvitationInput {
  /** The invitation token (the bearer, or `invitation_token` beside an API key). */
  token: string;
  /**
   * The key that authenticated the request when it was not the invitation
   * token: its owner is the one accepting, and must be the invited person.
   */
  acceptor?: Principal | undefined;
  /** Display name for a person we do not know yet; an existing person keeps theirs. */
  name?: string | undefined;
  keyName?: string | undefined;
  environment: KeyEnvironment;
}

/**
 * Accept an invitation, all in one transaction: the person (created when no
 * account has the email), the membership (created, or a removed one made
 * active with the invited role), the invitation marked accepted, a fresh first
 * key, the `invitation.accepted` event, the audit rows and the sender's notice.
 *
 * The token proves that someone was invited, not who is accepting
 * (invariant 3): it creates a new person, but it binds an account that already
 * exists only when the request also carries one of that person's own keys.
 * The invitation row is locked first, so of two concurrent acceptances exactly
 * one wins, and a removal of its sender either finishes first (and revoked it)
 * or waits for this acceptance.
 */
export async function acceptInvitation({ tx, ...input }: { tx: Tx } & AcceptInvitationInput) {
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
  await assertSenderStillAdministers(tx, invitation);

  const user = input.acceptor
    ? await invitedAcceptor(tx, invitation, input.acceptor)
    : await newPerson(tx, invitation, input.name, input.environment === 'live');
  const { membership, reactivated } = await joinNetwork(tx, invitation, user.id);

  const [accepted] = await tx
    .update(invitations)
    .set({ status: 'accepted', acceptedAt: sql`now()`, acceptedUserId: user.id, updatedAt: sql`now()` })
    .where(and(eq(invitations.networkId, invitation.networkId), eq(invitations.id, invitation.id)))
    .returning();
  const { key, token, scopes } = await mintApiKey({
    tx,
    name: input.keyName ?? 'first key',
    owner: { userId: user.id },
    creator: 'platform', // the invitation grants it; its sender's standing was checked above
    scopes: [{ networkId: invitation.networkId, role: membership.role }],
  });

  const actorKeyId = input.acceptor?.keyId ?? null;
  const data = { invitation_id: invitation.id, member_id: membership.id, user_id: user.id, email: invitation.email, role: membership.role };
  await recordEvent({ tx, networkId: invitation.networkId, type: 'invitation.accepted', data });
  await recordAudit({
    tx,
    networkId: invitation.networkId,
    actorKeyId,
    action: 'invitation.accepted',
    targetType: 'invitation',
    targetId: invitation.id,
    data: { ...data, reactivated },
  });
  await recordAudit({
    tx,
    networkId: invitation.networkId,
    actorKeyId,
    action: 'api_key.created',
    targetType: 'api_key',
    targetId: key.id,
    data: { key_name: key.name, owner: { type: 'person', id: user.id }, scopes: [{ network_id: invitation.networkId, role: membership.role }] },
  });
  await noticeInvitationAccepted({ tx, invitation });
  const member: MemberRecord = { membership, user };
  return { invitation: accepted!, member, key, token, scopes };
}

/**
 * An invitation carries its sender's authority (invariant 8), so it is good only while the key
 * that sent it — or the key that replaced it by rotation — still works and still administers the
 * network (`api_key_access`: its grant capped by its owner's standing), or is a super_user key.
 * A console session's key counts while it is not revoked: its normal end — expiry, or signing
 * out — ends the session, not the administrator's invitations. A revoked or expired key's, a removed or demoted administrator's, or a deleted service account's
 * invitations admit no one. The sender's credential lock is held first, so a revocation, removal
 * or demotion running now either finished before this check or waits for this acceptance.
 */
async function assertSenderStillAdministers(tx: Tx, invitation: InvitationRow): Promise<void> {
  const senderKeyId = invitation.createdByKeyId;
  if (senderKeyId) await holdCredentialOfKey(tx, senderKeyId);
  const [sender] = senderKeyId
    ? await tx
        .select({ administers: sql<boolean>`true` })
        .from(apiKeys)
        .leftJoin(apiKeyAccess, and(eq(apiKeyAccess.keyId, apiKeys.id), eq(apiKeyAccess.networkId, invitation.networkId)))
        .where(
          and(
            sql`${apiKeys.id} in (
              with recursive lineage(id) as (
                select ${senderKeyId}::text
                union
                select ${apiKeys.replacedByKeyId} from ${apiKeys} join lineage on ${apiKeys.id} = lineage.id where ${apiKeys.replacedByKeyId} is not null)
              select id from lineage)`,
            or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, sql`statement_timestamp()`)),
            // A session's end (expiry, or sign-out) is not a withdrawal: its invitations stay good.
            or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`statement_timestamp()`), eq(apiKeys.session, true)),
            or(eq(apiKeys.superUser, true), eq(apiKeyAccess.role, 'administrator')),
          ),
        )
        .limit(1)
    : [];
  if (!sender?.administers) {
    throw conflict(
      'The key that sent this invitation has been revoked or has expired, or its owner no longer administers the network, so the invitation can no longer be used. ' +
        'Ask a current administrator for a new one.',
    );
  }
}

type Person = MemberRecord['user'];

/**
 * Someone new: the token alone creates their person — never binds an account that exists. In live
 * mode the token reached nobody but the invitee's mailbox, so the person's address is proven now.
 */
async function newPerson(tx: Tx, invitation: InvitationRow, name: string | undefined, proven: boolean): Promise<Person> {
  // Concurrent acceptances of different invitations for one email must not collide on the unique email.
  const [created] = await tx
    .insert(users)
    .values({
      id: newId('user'),
      email: invitation.email,
      name: name ?? invitation.email.split('@')[0]!,
      emailProvenAt: proven ? sql`now()` : null,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, name: users.name });
  if (!created) {
    throw forbidden(
      `An account with the email ${invitation.email} already exists, and the invitation token alone does not prove who is accepting. ` +
        'Accept with one of that account’s API keys: Authorization: Bearer sk_… and the body {"invitation_token": "inv_…"}.',
    );
  }
  return created;
}

/** Someone who proved who they are with their own key: it must be the invited person. */
async function invitedAcceptor(tx: Tx, invitation: InvitationRow, acceptor: Principal): Promise<Person> {
  if (!acceptor.userId) throw forbidden('A service account cannot accept an invitation; invitations are for people.');
  const [person] = await tx.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, acceptor.userId));
  if (person?.email !== invitation.email) {
    throw forbidden(`This invitation is for ${invitation.email}; the API key you sent belongs to someone else.`);
  }
  // Read again, under the acceptor's credential lock (the gate's write check): the person's first
  // email sign-in, committed since the key was authenticated, may have ended its proof.
  const [key] = await tx.select({ identifiesOwner: apiKeys.identifiesOwner }).from(apiKeys).where(eq(apiKeys.id, acceptor.keyId));
  if (!key?.identifiesOwner) {
    throw forbidden(
      'This key does not prove who you are: an administrator minted or rotated it for you, or it predates your first email sign-in. ' +
        'Accept with a key you got yourself: a console session (sign in with email), a key received on accepting an invitation, or one made under /v1/apikeys with such a key.',
    );
  }
  return person;
}

/** A new membership with the invited role, or a removed one made active again. */
async function joinNetwork(tx: Tx, invitation: InvitationRow, userId: string) {
  const [inserted] = await tx
    .insert(memberships)
    .values({ id: newId('membership'), networkId: invitation.networkId, userId, role: invitation.role })
    .onConflictDoNothing({ target: [memberships.networkId, memberships.userId] })
    .returning();
  if (inserted) return { membership: inserted, reactivated: false };
  const [existing] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.networkId, invitation.networkId), eq(memberships.userId, userId)))
    .for('update');
  if (existing!.status === 'active') {
    throw conflict(`${invitation.email} is already an active member of this network; an administrator can change their role instead.`);
  }
  const [membership] = await updateVersioned({
    tx,
    table: memberships,
    networkId: existing!.networkId,
    set: { status: 'active', role: invitation.role },
    where: eq(memberships.id, existing!.id),
  }).returning();
  return { membership: membership!, reactivated: true };
}
