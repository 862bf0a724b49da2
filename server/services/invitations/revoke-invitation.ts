import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { invitations } from '@/db/schema';
import { conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { invitationStatus } from './find-invitations';

/** pending → revoked. Any other state (accepted, revoked, expired) is a 409. */
export async function revokeInvitation({ tx, ...input }: { tx: Tx; networkId: string; invitationId: string; actorKeyId: string }) {
  const [current] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.networkId, input.networkId), eq(invitations.id, input.invitationId)))
    .for('update');
  if (!current) throw notFound('Invitation');
  const status = invitationStatus(current);
  if (status !== 'pending') throw conflict(`This invitation is ${status}; only a pending invitation can be revoked.`);
  const [row] = await tx
    .update(invitations)
    .set({ status: 'revoked', updatedAt: sql`now()` })
    .where(and(eq(invitations.networkId, current.networkId), eq(invitations.id, current.id)))
    .returning();
  await recordAudit({
    tx,
    networkId: input.networkId,
    actorKeyId: input.actorKeyId,
    action: 'invitation.revoked',
    targetType: 'invitation',
    targetId: current.id,
    data: { email: current.email, role: current.role },
  });
  return row!;
}
