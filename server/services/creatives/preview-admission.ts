import { config, type Config } from '@/server/config';
import { AppError } from '@/server/errors';
import { FairQueue, QueueFull } from '@/server/fair-queue';

/**
 * Previews are synthesized while the caller waits, on the engine the creatives use: one network's
 * flood of them must neither slow another network's previews nor a creative. So each process
 * admits per network at most PREVIEW_CONCURRENCY_PER_NETWORK previews at a time, and lets at most
 * PREVIEW_QUEUE_PER_NETWORK more wait; a preview beyond that is refused at once with 429 and a
 * Retry-After. Networks never wait for each other here (each has its own places); where they meet
 * (the local engine) they are served in turn, and after creatives (server/synth/local.ts).
 *
 * Per process: with N web processes a network may run N × PREVIEW_CONCURRENCY_PER_NETWORK at once.
 */
const queues = new WeakMap<Config, FairQueue>();

function previewQueue(): FairQueue {
  const c = config();
  let queue = queues.get(c);
  if (!queue) queues.set(c, (queue = new FairQueue({ perKey: c.PREVIEW_CONCURRENCY_PER_NETWORK, queuePerKey: c.PREVIEW_QUEUE_PER_NETWORK })));
  return queue;
}

/** A preview's usual time (moving average of this process's), from which Retry-After is estimated. */
let typicalMs = 1_000;

/** Seconds until a refused caller may find room: the work ahead of it over the places it has, at least 1, at most 60. */
export function retryAfterSeconds(load: { running: number; waiting: number }, perNetwork: number, previewMs = typicalMs): number {
  const seconds = Math.ceil(((load.running + load.waiting) * previewMs) / Math.max(1, perNetwork) / 1000);
  return Math.min(60, Math.max(1, seconds));
}

/** Runs `synthesize` once `networkId` has a preview place, or throws 429 (rate-limited) when its queue is full. */
export async function admitPreview<T>(networkId: string, synthesize: () => Promise<T>): Promise<T> {
  const queue = previewQueue();
  let release: () => void;
  try {
    release = await queue.acquire(networkId);
  } catch (error) {
    if (!(error instanceof QueueFull)) throw error;
    const perNetwork = config().PREVIEW_CONCURRENCY_PER_NETWORK;
    const retryAfter = retryAfterSeconds(error, perNetwork);
    throw new AppError(
      'rate-limited',
      `This network already has ${error.running} preview(s) being made and ${error.waiting} waiting, the most one process takes. Retry after the seconds in Retry-After.`,
      // Paced like a budget's refusal: a network's refused previews wait in one line, a preview's time apart.
      {
        headers: { 'Retry-After': String(retryAfter) },
        pace: { line: `preview:${networkId}`, waitMs: retryAfter * 1000, everyMs: typicalMs / perNetwork },
      },
    );
  }
  const started = performance.now();
  try {
    return await synthesize();
  } finally {
    release();
    typicalMs = 0.8 * typicalMs + 0.2 * (performance.now() - started);
  }
}
