import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { invitations, memberships, users } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { generateSecretToken, hashToken } from '@/server/auth/tokens';
import { conflict } from '@/server/errors';
import { config } from '@/server/config';
import { recordAudit } from '@/server/services/audit/record-audit';
import { queueEmail } from '@/server/services/mail/queue-email';
import { invitationEmail } from '@/server/services/mail/templates';
import { findInvitationDetails } from './find-invitations';
import { reserveInvitationSlot } from '@/server/services/quotas';

export interface CreateInvitationInput {
  networkId: string;
  /** Already lower-cased. */
  email: string;
  role: Role;
  expiresInDays: number;
  actorKeyId: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where an invitation is accepted: the console's page, the token in the fragment (browsers send no fragment to a server). */
export const invitationAcceptLink = (token: string) => `${config().publicUrl}/console/invitations/accept#token=${token}`;

/**
 * Invite a person by email. The token (`inv_…`) exists only here, and in the email that carries
 * its accept link to the invitee, queued in this transaction (so it is sent exactly when the
 * invitation commits); only its SHA-256 is stored. The caller returns it or not (live mode: only
 * the invitee's mailbox gets it). Inviting someone who is already an active member is a 409
 * (change their role instead); so is a network at its quota of pending invitations
 * (QUOTA_PENDING_INVITATIONS_PER_NETWORK).
 */
export async function createInvitation({ tx, ...input }: { tx: Tx } & CreateInvitationInput) {
  const [activeMember] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.networkId, input.networkId), eq(memberships.status, 'active'), eq(users.email, input.email)));
  if (activeMember) {
    throw conflict(`${input.email} is already an active member of this network (${activeMember.id}); change their role instead.`);
  }
  await reserveInvitationSlot({ tx, networkId: input.networkId });
  const token = generateSecretToken('inv');
  const [row] = await tx
    .insert(invitations)
    .values({
      id: newId('invitation'),
      networkId: input.networkId,
      email: input.email,
      role: input.role,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
      createdByKeyId: input.actorKeyId,
    })
    .returning();
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'invitation.created',
    targetType: 'invitation',
    targetId: row!.id,
    data: { email: input.email, role: input.role, expires_at: row!.expiresAt.toISOString() },
  });
  const { networkName, invitedBy } = await findInvitationDetails({ db: tx, invitation: row! });
  const emailId = await queueEmail({
    tx,
    kind: 'invitation',
    to: input.email,
    queue: input.networkId,
    message: invitationEmail({ networkName, role: input.role, invitedBy, expiresAt: row!.expiresAt, link: invitationAcceptLink(token) }),
  });
  return { invitation: row!, token, emailId };
}
