import { and, asc, eq, gt, ilike, inArray, or, sql } from 'drizzle-orm';
import { postgresClientOf, type Database } from '@/db/client';
import { networks } from '@/db/schema';
import { tableStatement } from '@/db/statement';
import { actsInMode, type Principal } from '@/server/auth/principal';
import { MODES, type Mode } from '@/domain/modes';
import { containing } from '@/server/services/search/search-network';

const n = networks;
const after = sql.placeholder('after');
const take = sql.placeholder('take');

// One statement each, whatever the number of scopes or the cursor ('' = first page), rendered once.
const allNetworks = tableStatement<typeof networks, { modes: Mode[]; after: string; take: number }>(
  n,
  (columns) =>
    sql`select ${columns} from ${n} where ${n.mode} = any(${sql.placeholder('modes')}::text[]) and ${n.id} > ${after} order by ${n.id} limit ${take}`,
);
const scopedNetworks = tableStatement<typeof networks, { ids: string[]; after: string; take: number }>(
  n,
  (columns) =>
    sql`select ${columns} from ${n} where ${n.id} = any(${sql.placeholder('ids')}::text[]) and ${n.id} > ${after} order by ${n.id} limit ${take}`,
);

/** Both as Postgres receives them: the benchmark's bare server runs them (scripts/bench/service-statements.ts). */
export const LIST_NETWORKS_STATEMENTS = { all: allNetworks.rendered, scoped: scopedNetworks.rendered };

/**
 * Networks the key can see (all of them for a live super_user), in id order, after `afterId`; with `q`,
 * only those whose name contains it (any case) or whose id is it.
 */
export async function listNetworks({
  db,
  principal,
  afterId,
  limit,
  q,
}: {
  db: Database;
  principal: Principal;
  afterId: string | undefined;
  limit: number;
  q?: string | undefined;
}) {
  const ids = principal.superUser ? undefined : [...principal.scopes.keys()];
  if (ids?.length === 0) return [];
  // A super_user key sees the networks of the modes it acts in (a sk_test_ one: test networks only).
  const modes = MODES.filter((mode) => actsInMode(principal, mode));
  if (q) {
    return db
      .select()
      .from(n)
      .where(and(ids && inArray(n.id, ids), inArray(n.mode, modes), gt(n.id, afterId ?? ''), or(eq(n.id, q), ilike(n.name, containing(q)))))
      .orderBy(asc(n.id))
      .limit(limit);
  }
  const client = postgresClientOf(db);
  if (!ids) return allNetworks(client, { modes, after: afterId ?? '', take: limit });
  return scopedNetworks(client, { ids, after: afterId ?? '', take: limit });
}
