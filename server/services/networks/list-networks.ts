import { asc, gt, sql } from 'drizzle-orm';
import { preparedQuery, type Database } from '@/db/client';
import { networks } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';

const after = sql.placeholder('after');
const take = sql.placeholder('take');

// One statement each, whatever the number of scopes or the cursor ('' = first page).
const allNetworks = preparedQuery((db) =>
  db.select().from(networks).where(gt(networks.id, after)).orderBy(asc(networks.id)).limit(take).prepare('networks_all'),
);
const scopedNetworks = preparedQuery((db) =>
  db
    .select()
    .from(networks)
    .where(sql`${networks.id} = any(${sql.placeholder('ids')}::text[]) and ${networks.id} > ${after}`)
    .orderBy(asc(networks.id))
    .limit(take)
    .prepare('networks_scoped'),
);

/** Networks the key can see (all of them for super_user), in id order, after `afterId`. */
export async function listNetworks({ db, principal, afterId, limit }: { db: Database; principal: Principal; afterId: string | undefined; limit: number }) {
  if (principal.superUser) return allNetworks(db).execute({ after: afterId ?? '', take: limit });
  const ids = [...principal.scopes.keys()];
  if (ids.length === 0) return [];
  return scopedNetworks(db).execute({ ids, after: afterId ?? '', take: limit });
}
