import { and, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { apiKeys, invitations, networks, serviceAccounts, users } from '@/db/schema';
import { hashToken } from '@/server/auth/tokens';

export type InvitationRow = typeof invitations.$inferSelect;
import type { InvitationStatus } from './invitation-status';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

export { INVITATION_TOKEN_PATTERN, invitationStatus, type InvitationStatus } from './invitation-status';

function statusCondition(status: InvitationStatus): SQL {
  switch (status) {
    case 'pending':
      return and(eq(invitations.status, 'pending'), gt(invitations.expiresAt, sql`now()`))!;
    case 'expired':
      return and(eq(invitations.status, 'pending'), lte(invitations.expiresAt, sql`now()`))!;
    default:
      return eq(invitations.status, status);
  }
}

/** The invitation a token opens, whatever its state (the token is the credential: 401 when none). */
export async function findInvitationByToken({ db, token }: { db: Queryable; token: string }): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashToken(token)));
  return row;
}

/** What the person invited is shown before accepting: the network's name and who sent it. */
export interface InvitationDetails {
  invitation: InvitationRow;
  networkName: string;
  /** The name of the sending key's owner (a person, or a service account of the network); null when no sending key is recorded. */
  invitedBy: string | null;
}

/** An invitation with its network's name and its sender's. */
export async function findInvitationDetails({ db, invitation }: { db: Queryable; invitation: InvitationRow }): Promise<InvitationDetails> {
  const [network] = await db.select({ name: networks.name }).from(networks).where(eq(networks.id, invitation.networkId));
  let invitedBy: string | null = null;
  if (invitation.createdByKeyId) {
    const [sender] = await db
      .select({ person: users.name, account: serviceAccounts.name })
      .from(apiKeys)
      .leftJoin(users, eq(users.id, apiKeys.userId))
      .leftJoin(serviceAccounts, and(eq(serviceAccounts.id, apiKeys.serviceAccountId), eq(serviceAccounts.networkId, invitation.networkId)))
      .where(eq(apiKeys.id, invitation.createdByKeyId));
    invitedBy = sender?.person || sender?.account || null;
  }
  return { invitation, networkName: network?.name ?? '', invitedBy };
}

export async function findInvitation(find: { db: Queryable; networkId: string; id: string }): Promise<InvitationRow | undefined> {
  return networkRow(invitations, find);
}

/** A network's invitations, optionally of one status, in id (= creation) order. */
export async function listInvitations({
  filter,
  ...page
}: NetworkPage & { filter: { status?: InvitationStatus | undefined } }): Promise<InvitationRow[]> {
  return networkPage(invitations, page, [filter.status ? statusCondition(filter.status) : undefined]);
}
