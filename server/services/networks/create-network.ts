import { sql } from 'drizzle-orm';
import { postgresClientOf, type Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { networks } from '@/db/schema';
import { column, tableStatement } from '@/db/statement';
import { LIVE_NETWORK_KEY_LIFETIME_DAYS } from '@/domain/key-lifetime';
import { config } from '@/server/config';

const n = networks;
/** Every keyed POST of a network runs this: rendered once (db/statement.ts). */
const insertNetwork = tableStatement<typeof networks, { id: string; name: string; maxKeyLifetimeDays: number | null }>(
  n,
  (columns) =>
    sql`insert into ${n} (${column(n.id)}, ${column(n.name)}, ${column(n.maxKeyLifetimeDays)}) values (${sql.placeholder('id')}, ${sql.placeholder('name')}, ${sql.placeholder('maxKeyLifetimeDays')}) returning ${columns}`,
);

/** As Postgres receives it: the benchmark's bare server runs it (scripts/bench/service-statements.ts). */
export const INSERT_NETWORK_STATEMENT = insertNetwork.rendered;

/**
 * A new network. Its key lifetime limit is the one asked for, else a year in live mode
 * (LIVE_NETWORK_KEY_LIFETIME_DAYS) and none in test mode; null asks for none.
 */
export async function createNetwork({ tx, name, maxKeyLifetimeDays }: { tx: Tx; name: string; maxKeyLifetimeDays?: number | null }) {
  const limit = maxKeyLifetimeDays !== undefined ? maxKeyLifetimeDays : config().APP_ENV === 'live' ? LIVE_NETWORK_KEY_LIFETIME_DAYS : null;
  const [row] = await insertNetwork(postgresClientOf(tx), { id: newId('network'), name, maxKeyLifetimeDays: limit });
  return row!;
}
