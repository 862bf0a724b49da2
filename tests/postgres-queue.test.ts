/**
 * Guards patches/postgres+3.4.9.patch: postgres.js's internal Queue must
 * drop its consumed front while it is still non-empty, otherwise a pool that
 * stays busy keeps an ever-growing backing array (and remove() scans it all).
 *
 * `postgres/src/queue.js` is not in the package's exports map, so the file is
 * located from the package root (found via the resolvable main entry) and
 * imported by file URL. Both copies Node loads are checked: src/ (the ESM "import"
 * entry) and cjs/src/ (the "default"/require entry); the Cloudflare build (cf/) is
 * not patched (patches/README.md).
 */
import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface PgQueue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => PgQueue<T>;

const require = createRequire(import.meta.url);
// require.resolve('postgres') -> <root>/cjs/src/index.js
const pkgRoot = path.resolve(path.dirname(require.resolve('postgres')), '..', '..');

const copies = ['src/queue.js', 'cjs/src/queue.js'].filter((rel) => existsSync(path.join(pkgRoot, rel)));

async function loadQueue(rel: string): Promise<QueueFactory> {
  const file = path.join(pkgRoot, rel);
  if (rel.startsWith('cjs/')) return require(file) as QueueFactory;
  const mod = (await import(pathToFileURL(file).href)) as { default: QueueFactory };
  return mod.default;
}

/**
 * The backing array is closure-private. remove() calls `xs.indexOf(x)`, so a
 * momentary wrapper around Array.prototype.indexOf reveals the length of the
 * array it was called on. The sentinel is never in the queue, so remove()
 * returns null and does not mutate anything.
 */
function backingLength(q: PgQueue<unknown>): number {
  const original = Array.prototype.indexOf;
  let seen = -1;
  Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof original>) {
    seen = this.length;
    return original.apply(this, args);
  };
  let removed: unknown;
  try {
    removed = q.remove(Symbol('not-in-queue'));
  } finally {
    Array.prototype.indexOf = original;
  }
  expect(removed).toBeNull();
  if (seen < 0) throw new Error('could not observe the Queue backing array');
  return seen;
}

it('finds at least the ESM copy of the postgres Queue', () => {
  expect(copies).toContain('src/queue.js');
});

describe.each(copies)('postgres Queue (%s)', (rel) => {
  it('is FIFO and reports length', async () => {
    const Queue = await loadQueue(rel);
    const q = Queue<number>([1, 2]);
    expect(q.length).toBe(2);
    expect(q.push(3)).toBe(3);
    expect(q.length).toBe(3);
    expect([q.shift(), q.shift(), q.shift()]).toEqual([1, 2, 3]);
    expect(q.length).toBe(0);
    expect(q.shift()).toBeUndefined();
    expect(q.length).toBe(0);
    q.push(4);
    expect(q.shift()).toBe(4);
  });

  it('does not alias the initial array', async () => {
    const Queue = await loadQueue(rel);
    const initial = [1, 2, 3];
    const q = Queue(initial);
    q.shift();
    q.push(9);
    expect(initial).toEqual([1, 2, 3]);
  });

  it('remove() deletes a queued item and returns it, or null if absent', async () => {
    const Queue = await loadQueue(rel);
    const a = { id: 'a' },
      b = { id: 'b' },
      c = { id: 'c' },
      d = { id: 'd' };
    const q = Queue<{ id: string }>();
    q.push(a);
    q.push(b);
    q.push(c);
    expect(q.remove(b)).toBe(b);
    expect(q.length).toBe(2);
    expect(q.remove(b)).toBeNull();
    expect(q.remove(d)).toBeNull();
    expect(q.shift()).toBe(a);
    expect(q.remove(a)).toBeNull(); // already consumed
    q.push(d);
    expect(q.remove(d)).toBe(d);
    expect(q.shift()).toBe(c);
    expect(q.length).toBe(0);
  });

  it('keeps FIFO order and remove() correct across compaction', async () => {
    const Queue = await loadQueue(rel);
    const q = Queue<number>();
    const model: number[] = [];
    let next = 0;
    // Deterministic mixed workload, never fully draining after warm-up.
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 50_000; i++) {
      const r = rand();
      if (r < 0.5 || model.length < 2) {
        q.push(next);
        model.push(next);
        next++;
      } else if (r < 0.95) {
        expect(q.shift()).toBe(model.shift());
      } else {
        const victim = model[Math.floor(rand() * model.length)]!;
        expect(q.remove(victim)).toBe(victim);
        model.splice(model.indexOf(victim), 1);
      }
      expect(q.length).toBe(model.length);
    }
    while (model.length) expect(q.shift()).toBe(model.shift());
    expect(q.length).toBe(0);
  });

  it('bounds the backing array while the queue never drains', async () => {
    const Queue = await loadQueue(rel);
    const q = Queue<number>();
    for (let i = 0; i < 8; i++) q.push(i);
    let expected = 0;
    let maxBacking = 0;
    for (let i = 8; i < 100_008; i++) {
      q.push(i);
      expect(q.shift()).toBe(expected++);
      if (i % 1000 === 0) maxBacking = Math.max(maxBacking, backingLength(q));
    }
    expect(q.length).toBe(8);
    maxBacking = Math.max(maxBacking, backingLength(q));
    // Unpatched this is ~100,008 (the whole history); patched it stays < ~2k.
    expect(maxBacking).toBeLessThan(4096);
  });
});
