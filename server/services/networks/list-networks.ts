import { sql } from 'drizzle-orm';
import { postgresClientOf, type Database } from '@/db/client';
import { networks } from '@/db/schema';
import { tableStatement } from '@/db/statement';
import type { Principal } from '@/server/auth/principal';

const n = networks;
const after = sql.placeholder('after');
const take = sql.placeholder('take');

// One statement each, whatever the number of scopes or the cursor ('' = first page), rendered once.
const allNetworks = tableStatement<typeof networks, { after: string; take: number }>(
  n,
  (columns) => sql`select ${columns} from ${n} where ${n.id} > ${after} order by ${n.id} limit ${take}`,
);
const scopedNetworks = tableStatement<typeof networks, { ids: string[]; after: string; take: number }>(
  n,
  (columns) =>
    sql`select ${columns} from ${n} where ${n.id} = any(${sql.placeholder('ids')}::text[]) and ${n.id} > ${after} order by ${n.id} limit ${take}`,
);

/** Both as Postgres receives them: the benchmark's bare server runs them (scripts/bench/service-statements.ts). */
export const LIST_NETWORKS_STATEMENTS = { all: allNetworks.rendered, scoped: scopedNetworks.rendered };

/** Networks the key can see (all of them for super_user), in id order, after `afterId`. */
export async function listNetworks({
  db,
  principal,
  afterId,
  limit,
}: {
  db: Database;
  principal: Principal;
  afterId: string | undefined;
  limit: number;
}) {
  const client = postgresClientOf(db);
  if (principal.superUser) return allNetworks(client, { after: afterId ?? '', take: limit });
  const ids = [...principal.scopes.keys()];
  if (ids.length === 0) return [];
  return scopedNetworks(client, { ids, after: afterId ?? '', take: limit });
}
