/**
 * Guards patches/postgres+3.4.9.patch: a connection that dies while it is still starting — after
 * the handshake, while postgres.js fetches the array types — must fail the query that opened it
 * and nothing else. Unpatched, `closed()` went back to connecting with the type query still
 * marked in flight; the reconnect's ECONNREFUSED then rejected that query, and the promise of
 * postgres.js' `fetchArrayTypes()` (dropped by `ReadyForQuery`) became an unhandled rejection:
 * in the service, Next's handler logs `⨯ unhandledRejection` (seen in the Postgres-restart
 * reliability test when Postgres stopped while a pool connection was starting).
 *
 * Unpatched too, the lost type query stayed marked in flight on the reconnected connection, where
 * it swallowed the next startup's error: a server still starting up answers FATAL 57P03, which
 * was kept for the stale query instead of failing the waiting one, and the connection went on
 * reconnecting until the query's caller gave up.
 *
 * The servers here are real TCP servers that speak just enough of the protocol: they answer the
 * startup message with AuthenticationOk and ReadyForQuery and close the connection when the
 * first query (postgres.js' type lookup) arrives; then they either stop listening, so the
 * reconnect is refused, or answer the next startup with FATAL 57P03.
 */
import { createServer, type Server, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';

/** AuthenticationOk, then ReadyForQuery (idle): a session that is ready. */
const HANDSHAKE = Buffer.concat([
  Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]), // 'R', length 8, AuthenticationOk
  Buffer.from([0x5a, 0, 0, 0, 5, 0x49]), // 'Z', length 5, 'I'
]);

/** ErrorResponse FATAL 57P03, as a Postgres that is still starting up answers a startup message. */
const STARTING_UP = (() => {
  const fields = Buffer.from('SFATAL\0VFATAL\0C57P03\0Mthe database system is starting up\0\0', 'latin1');
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeUInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
})();

interface DroppingServer {
  port: number;
  /** Resolves when the server has dropped the connection during the type query. */
  dropped: Promise<void>;
  close(): void;
}

/** Drops the first session at its first query; then `refuse`s new connections or answers them `startingUp`. */
async function serverThatDropsTheFirstQuery(then: 'refuse' | 'startingUp'): Promise<DroppingServer> {
  const sockets = new Set<Socket>();
  let drop!: () => void;
  const dropped = new Promise<void>((resolve) => (drop = resolve));
  let sessions = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const session = ++sessions;
    let started = false;
    socket.on('error', () => {});
    socket.on('data', () => {
      if (session > 1) {
        socket.end(STARTING_UP);
        return;
      }
      if (!started) {
        started = true; // the startup message (no SSL request: ssl is off)
        socket.write(HANDSHAKE);
        return;
      }
      // The first query of the session is postgres.js' array-type lookup.
      if (then === 'refuse') server.close();
      socket.destroy();
      drop();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    dropped,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let cleanup: Array<() => unknown> = [];

afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

/**
 * `select 1` through a one-connection pool on `server`, watching for unhandled rejections: what
 * became of it ('answered', the error's code, or no answer within 3 s).
 */
async function firstQueryOn(server: DroppingServer): Promise<string | undefined> {
  cleanup.push(() => server.close());
  process.on('unhandledRejection', onUnhandled);
  const sql = postgres({
    host: '127.0.0.1',
    port: server.port,
    user: 'u',
    database: 'd',
    max: 1,
    connect_timeout: 2,
    backoff: () => 0.05,
    onnotice: () => {},
  });
  cleanup.push(() => sql.end({ timeout: 0 }));
  return Promise.race([
    sql`select 1`.then(
      () => 'answered',
      (error: { code?: string }) => error.code,
    ),
    new Promise<string>((resolve) => setTimeout(resolve, 3_000, 'no answer within 3 s')),
  ]);
}

describe('postgres.js: a connection lost while starting', () => {
  it('fails the query that opened it and leaves no unhandled rejection behind', async () => {
    const server = await serverThatDropsTheFirstQuery('refuse');
    const outcome = await firstQueryOn(server);
    await server.dropped;
    // Long enough for a rejection without a handler to be reported (Node reports it after the
    // microtask queue drains; the reconnect attempt is a few event-loop turns).
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(outcome).toBe('ECONNREFUSED');
    expect(unhandled).toEqual([]);
  });

  it('fails the waiting query with the error of the next startup', async () => {
    const server = await serverThatDropsTheFirstQuery('startingUp');
    const outcome = await firstQueryOn(server);

    expect(outcome).toBe('57P03');
    expect(unhandled).toEqual([]);
  });
});
