import { connect, isLockTimeout, type DbHandle } from '@/db/client';
import { logger } from '@/server/logger';
import { ensureTrackingPartitions } from './partitions';
import { networkOfToken, recordHits, type IncomingHit } from './record-hits';

export interface HitRecorderSettings {
  databaseUrl: string;
  /** Connections of its own (TRACKING_DATABASE_POOL_MAX): the API's pool is never spent on hits. */
  poolMax: number;
  prepare: boolean;
  /** The longest a hit waits for others before its batch is written (TRACKING_FLUSH_MS). */
  flushMs: number;
  /** A batch is written as soon as it has this many hits, and never holds more (TRACKING_FLUSH_HITS). */
  flushHits: number;
  /** Hits waiting or being written, at most; past it a hit is refused at once (TRACKING_BUFFER_HITS). */
  bufferHits: number;
  /** The most of the buffer one network's hits may hold (TRACKING_NETWORK_SHARE, a fraction): a flood of one network's URLs leaves room for the others'. */
  networkShare: number;
  sourceDailyLimit: number;
}

interface Waiting {
  hit: IncomingHit;
  /** Whose share of the buffer it holds: its network, or `?` while its token is not known yet. */
  holder: string;
  done: (kept: boolean) => void;
}

/**
 * Answering a hit (its response written) costs some 20 µs: a batch of 500 answered at once held the
 * event loop for 10 ms, and an API request arriving meanwhile waited that long. The hits are answered
 * this many at a time, each turn after the I/O that came in meanwhile (setImmediate).
 */
const ANSWERS_PER_TURN = 50;

function answerInTurns(batch: Waiting[], kept: boolean): Promise<void> {
  return new Promise((answered) => {
    const turn = (from: number) => {
      const end = Math.min(from + ANSWERS_PER_TURN, batch.length);
      for (let i = from; i < end; i++) batch[i]!.done(kept);
      if (end < batch.length) setImmediate(turn, end);
      else answered();
    };
    turn(0);
  });
}

/**
 * Group commit for tracking hits: a hit is answered only once the transaction that records it has
 * committed (or has failed: then every hit of its batch is answered as not kept). Hits wait in a
 * bounded buffer and are written in batches — one transaction, a few multi-row statements — every
 * `flushMs`, or at once when `flushHits` are waiting, by at most `poolMax` flushes at a time, each
 * on a connection of the recorder's own pool. Nothing here runs on the API's pool or its requests'
 * paths, and a flood costs the API only the buffer's bound: past it, hits are refused at once — and
 * past its network's share of it, so one network's flood leaves room for the others' hits.
 */
export class HitRecorder {
  private readonly waiting: Waiting[] = [];
  private writing = 0;
  private flushes = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastFailureLog = 0;
  private idle: (() => void) | undefined;
  /** Batches committed (or failed) whose hits are still being answered. */
  private readonly answering = new Set<Promise<void>>();
  /** Hits each network (or `?`) holds in the buffer, waiting or being written. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly db: DbHandle,
    private readonly settings: HitRecorderSettings,
  ) {}

  /**
   * Takes a hit: resolves to true once it is committed, to false if its batch failed. Undefined when
   * the buffer is full or the recorder is stopping: the hit was not taken, and is not waited on.
   */
  record(hit: IncomingHit): Promise<boolean> | undefined {
    if (this.stopped || this.waiting.length + this.writing >= this.settings.bufferHits) return undefined;
    // A token seen before is its network's; an unknown one (a new token, or a made-up one) shares `?`.
    const holder = networkOfToken(hit.token) ?? '?';
    const holding = this.held.get(holder) ?? 0;
    if (holding >= Math.max(1, Math.floor(this.settings.bufferHits * this.settings.networkShare))) return undefined;
    this.held.set(holder, holding + 1);
    return new Promise<boolean>((done) => {
      this.waiting.push({ hit, holder, done });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.waiting.length === 0 || this.flushes >= this.settings.poolMax) return;
    if (this.waiting.length >= this.settings.flushHits) {
      this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.settings.flushMs);
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.waiting.length === 0 || this.flushes >= this.settings.poolMax) return;
    const batch = this.waiting.splice(0, this.settings.flushHits);
    this.flushes++;
    this.writing += batch.length;
    void this.write(batch.map((w) => w.hit))
      .then(
        () => true,
        (error: unknown) => {
          this.logFailure(error, batch.length);
          return false;
        },
      )
      .then((kept) => {
        this.flushes--;
        this.writing -= batch.length;
        for (const w of batch) {
          const left = this.held.get(w.holder)! - 1;
          if (left === 0) this.held.delete(w.holder);
          else this.held.set(w.holder, left);
        }
        const answering = answerInTurns(batch, kept);
        this.answering.add(answering);
        void answering.then(() => this.answering.delete(answering));
        // Hits that arrived during the write have waited for it already: written at once.
        if (this.waiting.length > 0) this.flush();
        else if (this.flushes === 0) this.idle?.();
      });
  }

  private async write(hits: IncomingHit[]): Promise<void> {
    const db = this.db.db;
    const { sourceDailyLimit } = this.settings;
    try {
      await recordHits({ db, hits, sourceDailyLimit });
    } catch (error) {
      // Today's partition is made days ahead; should a clock or a stopped cron outrun them, it is made now.
      if (!isMissingPartition(error)) throw error;
      await ensureTrackingPartitions({ db });
      await recordHits({ db, hits, sourceDailyLimit });
    }
  }

  private logFailure(error: unknown, hits: number): void {
    // At most one line a second: a database that is down fails every flush.
    const now = Date.now();
    if (now - this.lastFailureLog < 1_000) return;
    this.lastFailureLog = now;
    logger.warn({ err: error, hits }, 'tracking: a batch of hits was not recorded (answered 503)');
  }

  /** Refuse new hits, write and answer the ones waiting, then close the pool. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.waiting.length > 0 || this.flushes > 0) {
      await new Promise<void>((resolve) => {
        this.idle = resolve;
        this.flush();
      });
    }
    await Promise.all(this.answering);
    await this.db.close();
  }
}

/** Postgres found no partition for a hit's time (the error, or one in its `cause` chain). */
function isMissingPartition(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as { message?: unknown }).message).includes('no partition of relation')) return true;
  }
  return false;
}

let current: HitRecorder | undefined;

/**
 * Open the recorder's own pool, make sure today's partitions exist, and take hits from then on
 * (`currentHitRecorder`, for the HTTP server's tracking path).
 */
export async function startHitRecorder(settings: HitRecorderSettings): Promise<HitRecorder> {
  const db = connect(settings.databaseUrl, { max: settings.poolMax, prepare: settings.prepare });
  try {
    await ensureTrackingPartitions({ db: db.db });
  } catch (error) {
    // Another process's flushes held the table past the lock timeout: the partitions are days ahead
    // already unless this is a first start, and a flush that finds none makes it (`write` above).
    if (!isLockTimeout(error)) throw error;
    logger.warn({ err: error }, 'tracking: partitions not made at start (the table was busy); the hourly cron or the first hit makes them');
  }
  current = new HitRecorder(db, settings);
  return current;
}

/** The process's recorder, when the service started one. */
export function currentHitRecorder(): HitRecorder | undefined {
  return current;
}

export async function stopHitRecorder(): Promise<void> {
  const recorder = current;
  current = undefined;
  await recorder?.stop();
}
