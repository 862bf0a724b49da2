import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '@/scripts/node-flags';
import { createTestDatabase } from './database';
import { freePort } from './free-port';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export { freePort } from './free-port';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed (stdout + stderr) so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Run one of the project's scripts as a child process (as `npm start` /
 * `npm run worker` would) and wait until it prints `ready`.
 */
async function startScript(
  script: string,
  env: Record<string, string>,
  ready: string,
  url: string,
  logFile?: string,
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const file = logFile ? createWriteStream(logFile) : undefined;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    file?.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in time:\n${output}`)), 180_000);
    const check = () => {
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    url,
    child,
    output: () => output,
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => {
          file?.end();
          resolve(code);
        });
        child.kill(signal);
      });
    },
  };
}

/**
 * Start the service exactly as `npm start` does (scripts/start.ts with its Node flags), in a child
 * process, and wait until it says it is ready.
 */
export async function startServerProcess(env: Record<string, string>, logFile?: string): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startScript('scripts/start.ts', { ...env, PORT: String(port) }, 'Ad network service ready on', url, logFile, SERVICE_NODE_FLAGS);
}

/** The background worker alone, as `npm run worker` starts it (scripts/worker.ts). */
export async function startWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startScript('scripts/worker.ts', env, 'worker running', '');
}

/**
 * Settings for a service a test starts for what its API does: without the console (Next is not
 * loaded: 3.2 s to start instead of 3.8, 273 MiB instead of 324). The shared server, and the
 * tests of `npm start` itself, run the whole service.
 */
export const API_ONLY = { CONSOLE: 'off' } as const;

/**
 * A service process of a test file's own, on a fresh database, for settings the
 * shared server must not have (small rate limits, private webhook targets…); API only unless
 * `env` says `CONSOLE: 'on'`. `stop()` stops it and drops its database.
 */
export async function startOwnServer(label: string, env: Record<string, string>) {
  const db = await createTestDatabase(label);
  const server = await startServerProcess({ DATABASE_URL: db.url, ...API_ONLY, ...env }).catch(async (error: unknown) => {
    await db.drop();
    throw error;
  });
  return {
    server,
    databaseUrl: db.url,
    async stop() {
      await server.stop();
      await db.drop();
    },
  };
}
