import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { ROOT } from '@/tests/support/server-process';

/** HEAD's commit hash, or 'no-commit' outside a git checkout. */
function head(): string {
  const result = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'no-commit';
}

/**
 * The seed a random test uses: `variable`'s value when set (a replay), else 31 bits of a hash of
 * HEAD's commit, the variable's name and `part`. Every run of one commit draws the same cases (a
 * failure in CI replays anywhere), each new commit draws others — so CI's small share of runs adds
 * up across commits instead of repeating itself — and no two suites draw alike.
 */
export function seedFrom(variable: string, part = 0): number {
  const value = process.env[variable];
  if (value !== undefined && value !== '') {
    const seed = Number(value);
    if (!Number.isInteger(seed)) throw new Error(`${variable}: an integer seed, not ${JSON.stringify(value)}`);
    return seed;
  }
  return createHash('sha256').update(`${head()} ${variable} ${part}`).digest().readUInt32BE(0) >>> 1;
}
