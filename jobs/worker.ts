import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import postgres from 'postgres';
import { connect } from '@/db/client';
import { logger } from '@/server/logger';
import { releaseStaleDeliveryJobs, staleDeliverySeconds } from '@/server/services/webhooks/release-stale';
import { ffmpegBinary } from './synth/ffmpeg';
import { crontab, taskList } from './tasks';

export interface WorkerOptions {
  connectionString: string;
  concurrency?: number;
  /** Tests add their own tasks; production uses the defaults. */
  taskList?: TaskList;
  crontab?: string;
  pollInterval?: number;
}

const workerLogger = new WorkerLogger((scope) => (level, message, meta) => {
  const fields = { ...scope, ...meta, component: 'worker' };
  if (level === 'error') logger.error(fields, message);
  else if (level === 'warning') logger.warn(fields, message);
  // One line per completed job is noise at thousands of deliveries a second; failures stay visible.
  else if (level === 'info' && !message.startsWith('Completed task')) logger.info(fields, message);
  else logger.debug(fields, message);
});

/** The worker as its owners see it: `promise` settles once `stop()` has stopped it. */
export interface WorkerHandle {
  promise: Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Start graphile-worker (in the web process, or alone with `npm run worker`), and keep it running.
 *
 * graphile-worker stops its runner for good when it cannot record finished jobs (a batch of
 * completions failing on a connection that Postgres closed while restarting, 57P01, is not an
 * error it retries): it expects a process supervisor to start it again. In the web process nothing
 * else would, and webhooks would stop until the next deploy. So a runner that stops without
 * `stop()` is replaced: its jobs are unlocked and a new one starts, retrying while Postgres is away.
 * With the production tasks it first checks for ffmpeg (jobs/synth/ffmpeg.ts) and fails the start,
 * naming what to install, when there is none.
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  if (!options.taskList) {
    // synthesize-creative masters audio with ffmpeg: refuse to start without it (the Error says what to install).
    const ffmpeg = await ffmpegBinary();
    logger.info({ ffmpeg: ffmpeg.path, source: ffmpeg.source, version: ffmpeg.version }, 'ffmpeg found for mastering creatives');
  }
  let stopping = false;
  let current = await startRunner(options);
  let finished!: () => void;
  const promise = new Promise<void>((resolve) => (finished = resolve));

  const replace = async (stopped: RunningWorker, error: unknown) => {
    if (stopping || stopped !== current) return;
    logger.error({ err: error }, 'the worker stopped on its own; starting a new one');
    await stopped.close();
    for (let attempt = 0; !stopping; attempt++) {
      try {
        const next = await startRunner(options);
        if (stopping) return void (await next.close());
        current = next;
        supervise(next);
        logger.warn('the worker runs again');
        return;
      } catch (startError) {
        logger.warn({ err: startError }, 'could not start the worker yet; retrying');
        await sleep(Math.min(10_000, 500 * 2 ** attempt));
      }
    }
  };
  const supervise = (running: RunningWorker) => {
    running.runner.promise.then(
      () => replace(running, undefined),
      (error: unknown) => replace(running, error),
    );
  };
  supervise(current);

  return {
    promise,
    async stop() {
      stopping = true;
      try {
        await current.close();
      } finally {
        finished();
      }
    },
  };
}

interface RunningWorker {
  runner: Runner;
  /** Stop what still runs (sweeper, runner) and unlock the jobs its pools hold. Idempotent. */
  close(): Promise<void>;
}

/**
 * One graphile-worker runner and its sweeper. Closing it also unlocks any job it still holds:
 * graphile-worker can exit with a cancelled job locked, and a locked job is only reclaimed after
 * four hours — a new worker must pick it up at once instead. A worker killed outright cannot do
 * that, so every worker also sweeps for delivery jobs left locked by a dead one (release-stale.ts).
 */
async function startRunner(options: WorkerOptions): Promise<RunningWorker> {
  const events = new EventEmitter() as WorkerEvents;
  const poolIds: string[] = [];
  events.on('pool:create', ({ workerPool }) => poolIds.push(workerPool.id));
  const concurrency = options.concurrency ?? 20;
  const runner = await run({
    connectionString: options.connectionString,
    concurrency,
    // Jobs mostly wait on the network (receivers, the voice vendor); give each slot a connection
    // when it needs one rather than queueing them behind graphile-worker's default of 10. Never
    // fewer than that default: its LISTEN connection holds one for good.
    maxPoolSize: Math.max(concurrency, 10),
    preset: {
      worker: {
        // Fetch (and lock) jobs in batches and complete them in batches: far fewer queries per job
        // under load. A job waits in the local queue at most half the staleness period, so the
        // sweeper below never takes a queued job for one left by a dead worker.
        localQueue: { size: concurrency * 2, ttl: (staleDeliverySeconds() * 1000) / 2 },
        completeJobBatchDelay: 5,
      },
    },
    taskList: options.taskList ?? taskList,
    crontab: options.crontab ?? crontab,
    pollInterval: options.pollInterval ?? 2000,
    noHandleSignals: true,
    logger: workerLogger,
    events,
  });
  const sweeper = startStaleDeliverySweeper(options.connectionString);
  let ended = false;
  runner.promise.then(
    () => (ended = true),
    () => (ended = true),
  );
  let closing: Promise<void> | undefined;
  return {
    runner,
    close: () =>
      (closing ??= (async () => {
        try {
          await sweeper.stop();
          if (!ended) {
            try {
              await runner.stop();
            } catch (error) {
              // It was stopping itself at this very moment (its promise not settled yet).
              if (!/already stopped/.test(String(error))) throw error;
            }
          }
        } finally {
          await unlockJobsOf(options.connectionString, poolIds);
        }
      })()),
  };
}

/**
 * Outside graphile-worker's queue on purpose: when every worker slot is busy,
 * a sweep queued as a job would wait behind the very jobs it must free. Runs
 * at start (a restarted worker frees what its killed predecessor held) and
 * then every half staleness period.
 */
function startStaleDeliverySweeper(connectionString: string) {
  const { db, close } = connect(connectionString, { max: 1 });
  const staleSeconds = staleDeliverySeconds();
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = releaseStaleDeliveryJobs({ db, staleSeconds })
      .then((released) => released > 0 && logger.warn({ released }, 'released delivery jobs left locked by a stopped worker'))
      .catch((error: unknown) => logger.warn({ err: error }, 'could not release stale delivery jobs'));
  };
  sweep();
  const timer = setInterval(sweep, Math.min(30, staleSeconds / 2) * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await close();
    },
  };
}

async function unlockJobsOf(connectionString: string, poolIds: string[]): Promise<void> {
  if (poolIds.length === 0) return;
  const sql = postgres(connectionString, { max: 1, onnotice: () => {} });
  try {
    await sql`select graphile_worker.force_unlock_workers(${poolIds}::text[])`;
  } catch (error) {
    logger.warn({ err: error }, 'could not unlock the jobs of a stopped worker');
  } finally {
    await sql.end({ timeout: 5 });
  }
}
