import { isNotNull, isNull } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { isId } from '@/db/ids';
import { serviceAccounts } from '@/db/schema';
import { networkPage, networkRow, type NetworkPage } from '@/server/services/page';

export type ServiceAccountRow = typeof serviceAccounts.$inferSelect;
export type ServiceAccountStatus = 'active' | 'deleted';

/**
 * A service account of this network, deleted or not; undefined when it does not
 * exist or belongs to another network (404 either way: ids are not leaked).
 */
export async function findServiceAccount({
  db,
  networkId,
  id,
}: {
  db: Queryable;
  networkId: string;
  id: string;
}): Promise<ServiceAccountRow | undefined> {
  return isId('serviceAccount', id) ? networkRow(serviceAccounts, { db, networkId, id }) : undefined;
}

/**
 * The same, row-locked until the transaction ends: a key minted for an account
 * and a concurrent delete of that account are serialised, so the delete either
 * sees (and revokes) the new key or the mint sees the account deleted.
 */
export async function lockServiceAccount({ tx, networkId, id }: { tx: Tx; networkId: string; id: string }): Promise<ServiceAccountRow | undefined> {
  return isId('serviceAccount', id) ? networkRow(serviceAccounts, { db: tx, networkId, id, lock: 'update' }) : undefined;
}

/** The network's service accounts in one status, in id order, after `afterId`. */
export async function listServiceAccounts({ status, ...page }: NetworkPage & { status: ServiceAccountStatus }) {
  return networkPage(serviceAccounts, page, [status === 'deleted' ? isNotNull(serviceAccounts.deletedAt) : isNull(serviceAccounts.deletedAt)]);
}
