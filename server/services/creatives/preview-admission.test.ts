import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { config, loadConfig, setConfig } from '@/server/config';
import { AppError } from '@/server/errors';
import { admitPreview, retryAfterSeconds } from './preview-admission';

/** A preview that finishes when the test says so. */
function pending() {
  let finish!: () => void;
  let started = false;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: () => {
      started = true;
      return done.then(() => 'audio');
    },
    finish,
    started: () => started,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

let saved: ReturnType<typeof config>;
beforeEach(() => {
  saved = config();
  setConfig(loadConfig({ ...process.env, PREVIEW_CONCURRENCY_PER_NETWORK: '1', PREVIEW_QUEUE_PER_NETWORK: '2' } as NodeJS.ProcessEnv));
});
afterEach(() => setConfig(saved));

describe('preview admission per network', () => {
  it('runs PREVIEW_CONCURRENCY_PER_NETWORK at once, queues PREVIEW_QUEUE_PER_NETWORK, refuses the next with 429 and Retry-After', async () => {
    const a = randomUUID();
    const [first, second, third] = [pending(), pending(), pending()];
    const answers = [admitPreview(a, first.work), admitPreview(a, second.work), admitPreview(a, third.work)];
    await settle();
    expect([first.started(), second.started(), third.started()]).toEqual([true, false, false]);

    const refused = await admitPreview(a, () => Promise.resolve('never')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'rate-limited' });
    expect(Number((refused as AppError).extra.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect((refused as AppError).detail).toMatch(/1 preview\(s\) being made and 2 waiting/);

    // Another network is not held up by A's queue.
    await expect(admitPreview(randomUUID(), () => Promise.resolve('b'))).resolves.toBe('b');

    // A's queue drains in order.
    first.finish();
    await settle();
    expect(second.started()).toBe(true);
    second.finish();
    third.finish();
    await expect(Promise.all(answers)).resolves.toEqual(['audio', 'audio', 'audio']);
  });

  it('frees the place when the synthesis fails', async () => {
    const a = randomUUID();
    await expect(admitPreview(a, () => Promise.reject(new Error('vendor down')))).rejects.toThrow('vendor down');
    await expect(admitPreview(a, () => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  it('estimates Retry-After from the work ahead over the network’s places, within 1–60 s', () => {
    expect(retryAfterSeconds({ running: 2, waiting: 4 }, 2, 1_000)).toBe(3);
    expect(retryAfterSeconds({ running: 1, waiting: 0 }, 2, 100)).toBe(1);
    expect(retryAfterSeconds({ running: 2, waiting: 1_000 }, 2, 5_000)).toBe(60);
  });
});
