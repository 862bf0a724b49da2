import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
  if (existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  log('Building the console (next build); later starts reuse it until the sources change…');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  writeFileSync(stamp, hash);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureNextBuild(process.cwd());
