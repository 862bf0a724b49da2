import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * graphile-worker through its public API only (patches/README.md): its `_private_*` tables change
 * between releases without notice, and a job built by hand escapes the task's payload type. The
 * product's code (not tests, not benchmarks) names no private table, and calls `add_job(s)` only
 * in server/jobs/enqueue.ts, the one module that builds jobs.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PRODUCT = ['app', 'db', 'jobs', 'server', 'scripts'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (name === 'node_modules' || name === 'bench') return [];
    if (statSync(file).isDirectory()) return sourcesUnder(file);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

const sources = PRODUCT.flatMap((dir) => sourcesUnder(path.join(ROOT, dir))).map((file) => ({
  file: path.relative(ROOT, file),
  text: readFileSync(file, 'utf8'),
}));

describe('graphile-worker is used through its public API', () => {
  it('reads its sources', () => {
    expect(sources.map((s) => s.file)).toContain('server/jobs/enqueue.ts');
  });

  it('names none of its private tables', () => {
    expect(sources.filter((s) => /graphile_worker\._private_/.test(s.text)).map((s) => s.file)).toEqual([]);
  });

  it('builds every job in server/jobs/enqueue.ts', () => {
    expect(sources.filter((s) => /graphile_worker\.add_jobs?\s*\(/.test(s.text)).map((s) => s.file)).toEqual(['server/jobs/enqueue.ts']);
  });
});
