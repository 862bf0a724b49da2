import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from './process-alive';

/** Inputs of the console build: when none changed, the last build is reused. */
const INPUTS = ['app', 'next.config.mjs', 'postcss.config.mjs', 'package-lock.json', 'tsconfig.json', 'server', 'db/schema'];

function addTree(hash: ReturnType<typeof createHash>, file: string): void {
  if (!existsSync(file)) return;
  if (statSync(file).isDirectory()) {
    for (const entry of readdirSync(file).sort()) addTree(hash, path.join(file, entry));
  } else {
    hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  }
}

export function sourceHash(root: string): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) addTree(hash, path.join(root, input));
  return hash.digest('hex');
}

/** Run `next build` unless `.next` already holds a build of these sources. */
export function ensureNextBuild(root: string, log: (msg: string) => void = console.log): void {
  const stamp = path.join(root, '.next', 'source-hash');
  const hash = sourceHash(root);
  const built = () => existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
  if (built()) return;
  // Processes starting together (several web processes, parallel test runs) build once: the
  // others wait for the lock and then find the build made.
  withBuildLock(root, () => {
    if (built()) return;
    log('Building the console (next build); later starts reuse it until the sources change…');
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
    writeFileSync(stamp, hash);
  });
}

/** A directory as a lock (mkdir is atomic), holding the owner's pid so a killed builder's lock is taken over. */
function withBuildLock(root: string, build: () => void): void {
  const lock = path.join(root, '.next-build.lock');
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const owner = lockOwner(lock);
      if (owner && !processAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(sleeper, 0, 0, 500);
    }
  }
  try {
    build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The pid in the lock, or 0 while its owner has not written it yet (or the lock just went). */
function lockOwner(lock: string): number {
  try {
    return Number(readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureNextBuild(process.cwd());
