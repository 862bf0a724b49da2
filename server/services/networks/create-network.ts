import { sql } from 'drizzle-orm';
import { postgresClientOf, type Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { networks } from '@/db/schema';
import { column, tableStatement } from '@/db/statement';
import { LIVE_NETWORK_KEY_LIFETIME_DAYS } from '@/domain/key-lifetime';
import type { Mode } from '@/domain/modes';
import type { Principal } from '@/server/auth/principal';
import { badRequest, forbidden } from '@/server/errors';
import { config } from '@/server/config';

const n = networks;
/** Every keyed POST of a network runs this: rendered once (db/statement.ts). */
const insertNetwork = tableStatement<typeof networks, { id: string; name: string; mode: Mode; maxKeyLifetimeDays: number | null }>(
  n,
  (columns) =>
    sql`insert into ${n} (${column(n.id)}, ${column(n.name)}, ${column(n.mode)}, ${column(n.maxKeyLifetimeDays)})
      values (${sql.placeholder('id')}, ${sql.placeholder('name')}, ${sql.placeholder('mode')}, ${sql.placeholder('maxKeyLifetimeDays')}) returning ${columns}`,
);

/** As Postgres receives it: the benchmark's bare server runs it (scripts/bench/service-statements.ts). */
export const INSERT_NETWORK_STATEMENT = insertNetwork.rendered;

/**
 * The mode a new network gets: the one asked for, else the instance's (APP_ENV). Under APP_ENV=test
 * every network is a test network; a live network needs a live key (a `sk_test_` super_user key
 * never reaches live data, docs/keys-and-roles.md#test-and-live).
 */
export function newNetworkMode(creator: Principal, asked: Mode | undefined): Mode {
  const { APP_ENV } = config();
  const mode = asked ?? APP_ENV;
  if (mode === 'live' && APP_ENV === 'test') {
    throw badRequest('This service runs in test mode (APP_ENV=test): every network is a test network.', [
      { path: 'mode', message: 'Only "test" under APP_ENV=test.' },
    ]);
  }
  if (mode === 'live' && creator.mode === 'test') throw forbidden('A test key (sk_test_…) cannot create a live network.');
  return mode;
}

/**
 * A new network. Its key lifetime limit is the one asked for, else a year for a live network
 * (LIVE_NETWORK_KEY_LIFETIME_DAYS) and none for a test network; null asks for none.
 */
export async function createNetwork({
  tx,
  name,
  mode,
  maxKeyLifetimeDays,
}: {
  tx: Tx;
  name: string;
  mode: Mode;
  maxKeyLifetimeDays?: number | null;
}) {
  const limit = maxKeyLifetimeDays !== undefined ? maxKeyLifetimeDays : mode === 'live' ? LIVE_NETWORK_KEY_LIFETIME_DAYS : null;
  const [row] = await insertNetwork(postgresClientOf(tx), { id: newId('network'), name, mode, maxKeyLifetimeDays: limit });
  return row!;
}
