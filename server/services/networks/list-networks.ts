import { and, asc, gt, inArray, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { networks } from '../../../db/schema';
import type { Principal } from '../../auth/principal';

/** Networks the key can see (all of them for super_user), in id order, after `afterId`. */
export async function listNetworks(db: Queryable, principal: Principal, afterId: string | undefined, take: number) {
  const conditions: SQL[] = [];
  if (!principal.superUser) {
    const ids = [...principal.scopes.keys()];
    if (ids.length === 0) return [];
    conditions.push(inArray(networks.id, ids));
  }
  if (afterId) conditions.push(gt(networks.id, afterId));
  return db
    .select()
    .from(networks)
    .where(and(...conditions))
    .orderBy(asc(networks.id))
    .limit(take)
    .prepare('list_networks')
    .execute();
}
