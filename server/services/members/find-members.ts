import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { memberships, users } from '@/db/schema';
import type { NetworkPage } from '@/server/services/page';

export type MembershipRow = typeof memberships.$inferSelect;
export type MembershipStatus = MembershipRow['status'];

/** A membership with the person it belongs to: what the API shows as a member. */
export interface MemberRecord {
  membership: MembershipRow;
  user: { id: string; email: string | null; name: string };
}

const memberColumns = {
  membership: memberships,
  user: { id: users.id, email: users.email, name: users.name },
};

/** One member of a network, or undefined (also when the id belongs to another network: ids are not leaked). */
export async function findMember({
  db,
  networkId,
  memberId,
}: {
  db: Queryable;
  networkId: string;
  memberId: string;
}): Promise<MemberRecord | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.networkId, networkId), eq(memberships.id, memberId)));
  return row;
}

/** Members of a network with the given status, in id (= creation) order, after `afterId`. */
export async function listMembers({
  db,
  networkId,
  status,
  afterId,
  take,
}: NetworkPage & { status: MembershipStatus }): Promise<Array<MemberRecord & { id: string }>> {
  const conditions: SQL[] = [eq(memberships.networkId, networkId), eq(memberships.status, status)];
  if (afterId) conditions.push(gt(memberships.id, afterId));
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(...conditions))
    .orderBy(asc(memberships.id))
    .limit(take);
  return rows.map((row) => ({ ...row, id: row.membership.id }));
}
