/**
 * Work shared by tenants, served fairly: each tenant (a network) has its own FIFO line, and a free
 * place goes to the next tenant in turn (round robin), not to whoever queued the most. Optional
 * bounds: places in all (`concurrency`), places per tenant (`perKey`), and waiting work per tenant
 * (`queuePerKey`; beyond it `acquire` refuses at once with `QueueFull`). Priority classes: a free
 * place goes to class 0 before class 1 (a creative's synthesis before a preview), round robin
 * within the class.
 *
 * In memory, per process: what one process holds. Used for previews (per-network admission,
 * server/services/creatives/preview-admission.ts), the local voice engine (one synthesis at a time,
 * server/synth/local.ts) and mastering (one per core, server/synth/master.ts).
 */
export interface FairQueueOptions {
  /** Work of every key running at once. Default: no bound. */
  concurrency?: number;
  /** Work of one key running at once. Default: no bound. */
  perKey?: number;
  /** Work of one key waiting at once; `acquire` beyond it throws `QueueFull`. Default: no bound. */
  queuePerKey?: number;
  /** Priority classes (0 is served first). Default 1. */
  classes?: number;
}

export interface AcquireOptions {
  /** 0 (served first) … classes − 1. */
  priority?: number;
  /** Stops waiting (the promise rejects with the signal's reason); no effect once started. */
  signal?: AbortSignal;
}

/** Frees the place (idempotent). */
export type Release = () => void;

/** `acquire` refused: the key already has `queuePerKey` waiting. */
export class QueueFull extends Error {
  override readonly name = 'QueueFull';
  constructor(
    readonly key: string,
    readonly running: number,
    readonly waiting: number,
  ) {
    super(`${key} already has ${waiting} waiting and ${running} running`);
  }
}

interface Waiter {
  key: string;
  priority: number;
  start: (release: Release) => void;
  started: boolean;
  unlisten?: () => void;
}

export class FairQueue {
  private readonly concurrency: number;
  private readonly perKey: number;
  private readonly queuePerKey: number;
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly waitingOf = new Map<string, number>();
  /** Per class, the keys with waiting work in the order they are served next (a Map keeps insertion order), each with its FIFO. */
  private readonly lines: Array<Map<string, Waiter[]>>;

  constructor(options: FairQueueOptions = {}) {
    this.concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
    this.perKey = options.perKey ?? Number.POSITIVE_INFINITY;
    this.queuePerKey = options.queuePerKey ?? Number.POSITIVE_INFINITY;
    this.lines = Array.from({ length: Math.max(1, options.classes ?? 1) }, () => new Map<string, Waiter[]>());
  }

  /** What `key` has running and waiting now. */
  load(key: string): { running: number; waiting: number } {
    return { running: this.runningOf.get(key) ?? 0, waiting: this.waitingOf.get(key) ?? 0 };
  }

  /** A place for `key`'s work: resolves once it may start (at once when there is room), with its release. */
  acquire(key: string, options: AcquireOptions = {}): Promise<Release> {
    const priority = Math.min(Math.max(0, options.priority ?? 0), this.lines.length - 1);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { key, priority, start: resolve, started: false };
      this.enqueue(waiter);
      this.dispatch();
      if (waiter.started) return;
      if ((this.waitingOf.get(key) ?? 0) > this.queuePerKey) {
        this.remove(waiter);
        const { running, waiting } = this.load(key);
        return reject(new QueueFull(key, running, waiting));
      }
      const signal = options.signal;
      if (signal) {
        const onAbort = () => {
          if (waiter.started) return;
          this.remove(waiter);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
    });
  }

  /** Runs `work` once `key` has a place, and frees it when the work settles. */
  async run<T>(key: string, work: () => Promise<T>, options: AcquireOptions = {}): Promise<T> {
    const release = await this.acquire(key, options);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private enqueue(waiter: Waiter): void {
    const line = this.lines[waiter.priority]!;
    const waiting = line.get(waiter.key);
    if (waiting) waiting.push(waiter);
    else line.set(waiter.key, [waiter]);
    this.waitingOf.set(waiter.key, (this.waitingOf.get(waiter.key) ?? 0) + 1);
  }

  private remove(waiter: Waiter): void {
    const line = this.lines[waiter.priority]!;
    const waiting = line.get(waiter.key);
    const at = waiting?.indexOf(waiter) ?? -1;
    if (at < 0) return;
    waiting!.splice(at, 1);
    if (waiting!.length === 0) line.delete(waiter.key);
    this.countWaiting(waiter.key, -1);
  }

  private countWaiting(key: string, delta: number): void {
    const n = (this.waitingOf.get(key) ?? 0) + delta;
    if (n > 0) this.waitingOf.set(key, n);
    else this.waitingOf.delete(key);
  }

  /** The next waiter that may start: the highest class first, then the first key in turn that is under its bound. */
  private next(): Waiter | undefined {
    for (const line of this.lines) {
      for (const [key, waiting] of line) {
        if ((this.runningOf.get(key) ?? 0) >= this.perKey) continue;
        const waiter = waiting.shift()!;
        // Served: the key goes to the back of its class's line (round robin).
        line.delete(key);
        if (waiting.length > 0) line.set(key, waiting);
        this.countWaiting(key, -1);
        return waiter;
      }
    }
    return undefined;
  }

  private dispatch(): void {
    while (this.running < this.concurrency) {
      const waiter = this.next();
      if (!waiter) return;
      this.running++;
      this.runningOf.set(waiter.key, (this.runningOf.get(waiter.key) ?? 0) + 1);
      waiter.started = true;
      waiter.unlisten?.();
      let released = false;
      waiter.start(() => {
        if (released) return;
        released = true;
        this.running--;
        const n = (this.runningOf.get(waiter.key) ?? 1) - 1;
        if (n > 0) this.runningOf.set(waiter.key, n);
        else this.runningOf.delete(waiter.key);
        this.dispatch();
      });
    }
  }
}
