import { sql } from 'drizzle-orm';
import { postgresClientOf, type Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { networks } from '@/db/schema';
import { column, tableStatement } from '@/db/statement';

const n = networks;
/** Every keyed POST of a network runs this: rendered once (db/statement.ts). */
const insertNetwork = tableStatement<typeof networks, { id: string; name: string }>(
  n,
  (columns) =>
    sql`insert into ${n} (${column(n.id)}, ${column(n.name)}) values (${sql.placeholder('id')}, ${sql.placeholder('name')}) returning ${columns}`,
);

/** As Postgres receives it: the benchmark's bare server runs it (scripts/bench/service-statements.ts). */
export const INSERT_NETWORK_STATEMENT = insertNetwork.rendered;

export async function createNetwork({ tx, name }: { tx: Tx; name: string }) {
  const [row] = await insertNetwork(postgresClientOf(tx), { id: newId('network'), name });
  return row!;
}
