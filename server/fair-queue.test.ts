import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFull, type Release } from './fair-queue';

/** Acquires for `key` and records the order in which places are granted. */
function recorder(queue: FairQueue) {
  const order: string[] = [];
  const releases = new Map<string, Release>();
  const take = (key: string, label: string, priority?: number) =>
    queue.acquire(key, { priority }).then((release) => {
      order.push(label);
      releases.set(label, release);
      return release;
    });
  const release = (label: string) => releases.get(label)!();
  return { order, take, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it('serves waiting networks in turn, not in arrival order: B’s one item waits for one of A’s, not for all of them', async () => {
    const queue = new FairQueue({ concurrency: 1 });
    const r = recorder(queue);
    void r.take('A', 'a1');
    for (const n of [2, 3, 4, 5]) void r.take('A', `a${n}`);
    void r.take('B', 'b1');
    await settle();
    expect(r.order).toEqual(['a1']);
    for (const label of ['a1', 'a2', 'b1', 'a3', 'a4']) {
      r.release(label);
      await settle();
    }
    expect(r.order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5']);
  });

  it('runs at most perKey of one network at once, while another network starts at once', async () => {
    const queue = new FairQueue({ perKey: 2 });
    const r = recorder(queue);
    for (const n of [1, 2, 3]) void r.take('A', `a${n}`);
    void r.take('B', 'b1');
    await settle();
    expect(r.order).toEqual(['a1', 'a2', 'b1']);
    expect(queue.load('A')).toEqual({ running: 2, waiting: 1 });
    r.release('a1');
    await settle();
    expect(r.order.at(-1)).toBe('a3');
  });

  it('refuses at once beyond queuePerKey waiting, for that network only', async () => {
    const queue = new FairQueue({ perKey: 1, queuePerKey: 2 });
    const r = recorder(queue);
    for (const n of [1, 2, 3]) void r.take('A', `a${n}`);
    await expect(queue.acquire('A')).rejects.toBeInstanceOf(QueueFull);
    await expect(queue.acquire('A')).rejects.toMatchObject({ key: 'A', running: 1, waiting: 2 });
    await expect(queue.acquire('B')).resolves.toBeTypeOf('function');
    // A place frees: one waiting starts, so one more may wait again.
    r.release('a1');
    await settle();
    expect(queue.load('A')).toEqual({ running: 1, waiting: 1 });
    void r.take('A', 'a4');
    await settle();
    expect(queue.load('A')).toEqual({ running: 1, waiting: 2 });
  });

  it('serves a higher class before waiting work of a lower one (a creative before previews)', async () => {
    const queue = new FairQueue({ concurrency: 1, classes: 2 });
    const r = recorder(queue);
    void r.take('A', 'preview-1', 1);
    void r.take('A', 'preview-2', 1);
    void r.take('A', 'preview-3', 1);
    void r.take('B', 'creative', 0);
    await settle();
    r.release('preview-1');
    await settle();
    expect(r.order).toEqual(['preview-1', 'creative']);
  });

  it('forgets a waiter whose signal aborts, and a release given twice frees one place', async () => {
    const queue = new FairQueue({ concurrency: 1 });
    const first = await queue.acquire('A');
    const controller = new AbortController();
    const waiting = queue.acquire('A', { signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(queue.load('A')).toEqual({ running: 1, waiting: 0 });
    first();
    first();
    const a = await queue.acquire('A');
    const b = queue.acquire('B');
    await settle();
    expect(queue.load('B')).toEqual({ running: 0, waiting: 1 });
    a();
    await expect(b).resolves.toBeTypeOf('function');
  });

  it('frees the place when the work of run() throws', async () => {
    const queue = new FairQueue({ concurrency: 1 });
    await expect(queue.run('A', () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(queue.load('A')).toEqual({ running: 0, waiting: 0 });
    await expect(queue.run('B', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
