import { createConnection, createServer, type Socket } from 'node:net';
import { createTestDatabase } from './database';
import { API_ONLY, startServerProcess } from './server-process';

/**
 * A TCP proxy in front of Postgres that can lose one acknowledgement, or every
 * connection (`refuseConnections`). Once armed,
 * the first server message `CommandComplete "COMMIT"` it sees is not forwarded —
 * both sockets are closed instead. The transaction has committed on the server;
 * the client only learns that its connection died. The failure a network blip or
 * a restarting Postgres causes now and then, made to happen on purpose.
 */
export async function startPostgresProxy(
  target: { host: string; port: number },
  options: {
    /** The text of every statement sent or prepared (a prepared statement once per connection). */
    onStatement?: (sql: string) => void;
    /** The text of every statement run: each simple query, and each Bind of a prepared one. */
    onExecution?: (sql: string) => void;
  } = {},
) {
  // 'C', int32 length 11 (4 + "COMMIT\0"), "COMMIT\0": the CommandComplete of a COMMIT.
  const COMMIT_COMPLETE = Buffer.concat([Buffer.from([0x43, 0, 0, 0, 11]), Buffer.from('COMMIT\0', 'latin1')]);
  const sockets = new Set<Socket>();
  let armed = false;
  let refusing = false;
  let lost = 0;

  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    const readStatements =
      (options.onStatement || options.onExecution) && frontendStatements(options.onStatement ?? (() => {}), options.onExecution ?? (() => {}));
    client.on('data', (chunk: Buffer) => {
      readStatements?.(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(COMMIT_COMPLETE)) {
        armed = false;
        lost++;
        closeBoth();
        return;
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', closeBoth);
      socket.on('close', () => {
        sockets.delete(socket);
        closeBoth();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    /** Lose the acknowledgement of the next COMMIT that passes through. */
    loseNextCommitAcknowledgement() {
      armed = true;
    },
    /** Postgres is gone, as far as the service can tell: open connections drop, new ones are cut at once. */
    refuseConnections() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    acceptConnections() {
      refusing = false;
    },
    /** How many acknowledgements were lost so far. */
    lostAcknowledgements: () => lost,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Reads the client's side of the wire protocol and reports the SQL text of every
 * simple query ('Q') and every statement it prepares ('P'), whatever the chunking;
 * and, as executions, every simple query and every Bind ('B') of a prepared statement
 * (by the text its name was prepared with). The first messages (SSLRequest,
 * StartupMessage) carry no type byte.
 */
function frontendStatements(onStatement: (sql: string) => void, onExecution: (sql: string) => void) {
  const SSL_OR_GSS = new Set([80877103, 80877104]);
  const prepared = new Map<string, string>();
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const typed = started ? 1 : 0;
      if (pending.length < typed + 4) return;
      const length = pending.readInt32BE(typed);
      if (pending.length < typed + length) return;
      const message = pending.subarray(0, typed + length);
      pending = pending.subarray(typed + length);
      if (!started) {
        started = !SSL_OR_GSS.has(message.readInt32BE(4));
        continue;
      }
      const type = String.fromCharCode(message[0]!);
      if (type === 'Q') {
        const text = message.toString('utf8', 5, message.indexOf(0, 5));
        onStatement(text);
        onExecution(text);
      } else if (type === 'P') {
        const nameEnd = message.indexOf(0, 5);
        const text = message.toString('utf8', nameEnd + 1, message.indexOf(0, nameEnd + 1));
        prepared.set(message.toString('utf8', 5, nameEnd), text);
        onStatement(text);
      } else if (type === 'B') {
        // Bind: the portal's name, then the prepared statement's.
        const afterPortal = message.indexOf(0, 5) + 1;
        const name = message.toString('utf8', afterPortal, message.indexOf(0, afterPortal));
        onExecution(prepared.get(name) ?? '');
      }
    }
  };
}

/**
 * A fresh test database (`createTestDatabase(label)`) with a proxy in front of it (`options` as for
 * `startPostgresProxy`): `viaProxy` is the database's URL through the proxy. The caller closes the
 * proxy and drops the database.
 */
export async function proxiedTestDatabase(label: string, options: Parameters<typeof startPostgresProxy>[1] = {}) {
  const database = await createTestDatabase(label);
  const direct = new URL(database.url);
  const proxy = await startPostgresProxy({ host: direct.hostname, port: Number(direct.port || 5432) }, options);
  const viaProxy = new URL(database.url);
  viaProxy.port = String(proxy.port);
  return { database, proxy, viaProxy: viaProxy.toString() };
}

/**
 * A service process of a test file's own (no worker: only requests touch Postgres) on a fresh
 * database, its every connection through a proxy the test controls. `stop()` undoes it all.
 */
export async function startServerBehindProxy(label: string, superUserToken: string) {
  const { database, proxy, viaProxy } = await proxiedTestDatabase(label);
  const server = await startServerProcess({ ...API_ONLY, DATABASE_URL: viaProxy, BOOTSTRAP_SUPERUSER_TOKEN: superUserToken, WORKER: 'off' });
  return {
    database,
    proxy,
    server,
    async stop() {
      proxy.acceptConnections();
      await server.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
