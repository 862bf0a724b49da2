import { chownSync, chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { postgresOsUser } from '@/db/embedded';
import { freePort } from '@/scripts/free-port';
import { startChild, type Child } from './child';

/** The two ways in: web processes share server connections per transaction; workers keep theirs. */
export const TRANSACTION_DATABASE = 'service';
export const SESSION_DATABASE = 'service_session';

export interface PgBouncer {
  child: Child;
  /** Transaction pooling: for the web processes (no session state survives a transaction). */
  transactionUrl: string;
  /**
   * Session pooling: a client keeps one server connection while it is connected. For the
   * workers (graphile-worker LISTENs for new jobs, which only a session receives) and for
   * migrations (a session advisory lock).
   */
  sessionUrl: string;
}

export interface PgBouncerOptions {
  binary: string;
  /** Where its configuration is written (a folder of the cluster run). */
  dir: string;
  /** The real database. */
  databaseUrl: string;
  /** Server connections for the transaction pool (shared by all web processes). */
  transactionPoolSize: number;
  /** Server connections for the session pool: one per worker client connection, at most. */
  sessionPoolSize: number;
}

/**
 * PgBouncer in front of Postgres, as `pgbouncer` from Debian runs it, in the foreground (its log
 * goes to the cluster's output). As root it runs as the `postgres` OS user: it refuses root.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const target = new URL(options.databaseUrl);
  const port = await freePort();
  const server = (dbname: string, mode: 'transaction' | 'session', size: number) =>
    [
      `${dbname} = host=${target.hostname} port=${target.port || 5432} dbname=${decodeURIComponent(target.pathname.slice(1))}`,
      `user=${decodeURIComponent(target.username || 'postgres')}`,
      target.password ? `password=${decodeURIComponent(target.password)}` : '',
      `pool_mode=${mode} pool_size=${size}`,
    ]
      .filter(Boolean)
      .join(' ');
  const config = [
    '[databases]',
    server(TRANSACTION_DATABASE, 'transaction', options.transactionPoolSize),
    server(SESSION_DATABASE, 'session', options.sessionPoolSize),
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    // Clients are the cluster's own processes on loopback; PgBouncer logs in to Postgres with the
    // credentials above, whatever user a client names.
    'auth_type = any',
    'max_client_conn = 2000',
    // postgres.js and node-postgres send these at connect; PgBouncer refuses unknown ones.
    'ignore_startup_parameters = extra_float_digits, options',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
  const file = path.join(options.dir, 'pgbouncer.ini');
  // It holds the database password: readable by its owner only.
  writeFileSync(file, config, { mode: 0o600 });
  const args = [file];
  if (process.getuid?.() === 0) {
    const user = postgresOsUser();
    if (!user) throw new Error('PgBouncer refuses to run as root, and there is no "postgres" OS user to run it as.');
    chmodSync(options.dir, 0o755);
    chownSync(file, user.uid, user.gid);
    args.unshift('-u', 'postgres');
  }
  const child = startChild('pgbouncer', options.binary, args);

  const url = (dbname: string) => `postgres://cluster@127.0.0.1:${port}/${dbname}`;
  const pgbouncer = { child, transactionUrl: url(TRANSACTION_DATABASE), sessionUrl: url(SESSION_DATABASE) };
  await waitUntilItAnswers(pgbouncer.sessionUrl, child);
  return pgbouncer;
}

async function waitUntilItAnswers(url: string, child: Child): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exited()) throw new Error(`PgBouncer exited at start:\n${child.recentOutput()}`);
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PgBouncer did not answer within 20 s: ${String(error)}\n${child.recentOutput()}`);
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
}
