import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import postgres from 'postgres';
import { connect } from '@/db/client';
import { logger } from '@/server/logger';
import { releaseStaleSynthesisJobs } from '@/server/services/creatives/synthesis-lanes';
import { releaseStaleDeliveryJobs, staleDeliverySeconds } from '@/server/services/webhooks/release-stale';
import { ffmpegBinary } from '@/server/synth/ffmpeg';
import { crontab, taskList } from './tasks';

export interface WorkerOptions {
  connectionString: string;
  /** Slots of the main pool: webhook deliveries and the cron tasks (WORKER_CONCURRENCY). */
  concurrency?: number;
  /** Slots of the synthesis pool: creatives (WORKER_SYNTHESIS_CONCURRENCY). */
  synthesisConcurrency?: number;
  /** Tests add their own tasks: the main pool runs exactly these. Production uses the defaults. */
  taskList?: TaskList;
  /** With `taskList`: the tasks of a synthesis pool beside it (tests of both pools). */
  synthesisTaskList?: TaskList;
  crontab?: string;
  pollInterval?: number;
}

/**
 * One graphile-worker runner: it fetches only jobs of the tasks in its list, and runs at most
 * `concurrency` at once. Two pools in one process keep synthesis (seconds of CPU or vendor time
 * per creative) and webhook deliveries (a slow receiver holds a slot up to WEBHOOK_TIMEOUT_MS)
 * from ever waiting for each other's slots.
 */
interface Pool {
  name: 'jobs' | 'synthesis';
  taskList: TaskList;
  concurrency: number;
  crontab: string;
  /** Fetch and complete jobs in batches (the main pool: thousands of deliveries a second). */
  batched: boolean;
  maxPoolSize: number;
}

/** Tasks of the synthesis pool; every other task runs in the main pool. */
const SYNTHESIS_TASKS = new Set(['synthesize-creative']);

function poolsOf(options: WorkerOptions): Pool[] {
  const concurrency = options.concurrency ?? 20;
  // Jobs mostly wait on the network (receivers, the voice vendor); give each slot a connection
  // when it needs one rather than queueing them behind graphile-worker's default of 10. Never
  // fewer than that default: its LISTEN connection holds one for good.
  const main = { name: 'jobs' as const, crontab: options.crontab ?? crontab, concurrency, batched: true, maxPoolSize: Math.max(concurrency, 10) };
  const synthesisConcurrency = options.synthesisConcurrency ?? 20;
  // A synthesis job takes seconds and queries little (its own work uses the service's pool): a
  // few connections serve its fetches and completions, one more is its LISTEN.
  const synthesis = {
    name: 'synthesis' as const,
    crontab: '',
    concurrency: synthesisConcurrency,
    batched: false,
    maxPoolSize: Math.min(synthesisConcurrency, 4) + 1,
  };
  if (options.taskList) {
    const own = [{ ...main, taskList: options.taskList }];
    return options.synthesisTaskList ? [...own, { ...synthesis, taskList: options.synthesisTaskList }] : own;
  }
  const pick = (inSynthesis: boolean) => Object.fromEntries(Object.entries(taskList).filter(([name]) => SYNTHESIS_TASKS.has(name) === inSynthesis));
  return [
    { ...main, taskList: pick(false) },
    { ...synthesis, taskList: pick(true) },
  ];
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
 * Start graphile-worker (in the web process, or alone with `npm run worker`), and keep it running:
 * two runners (the main pool and the synthesis pool, above), each supervised on its own.
 *
 * graphile-worker stops its runner for good when it cannot record finished jobs (a batch of
 * completions failing on a connection that Postgres closed while restarting, 57P01, is not an
 * error it retries): it expects a process supervisor to start it again. In the web process nothing
 * else would, and webhooks would stop until the next deploy. So a runner that stops without
 * `stop()` is replaced: its jobs are unlocked and a new one starts, retrying while Postgres is away.
 * With the production tasks it first checks for ffmpeg (server/synth/ffmpeg.ts) and fails the start,
 * naming what to install, when there is none.
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHandle> {
  if (!options.taskList) {
    // synthesize-creative masters audio with ffmpeg: refuse to start without it (the Error says what to install).
    const ffmpeg = await ffmpegBinary();
    logger.info({ ffmpeg: ffmpeg.path, source: ffmpeg.source, version: ffmpeg.version }, 'ffmpeg found for mastering creatives');
  }
  const sweeper = startStaleJobSweeper(options.connectionString);
  const supervised: SupervisedPool[] = [];
  try {
    for (const pool of poolsOf(options)) supervised.push(await supervisePool(options, pool));
  } catch (error) {
    await Promise.all(supervised.map((s) => s.stop()));
    await sweeper.stop();
    throw error;
  }
  let finished!: () => void;
  const promise = new Promise<void>((resolve) => (finished = resolve));
  return {
    promise,
    async stop() {
      try {
        await Promise.all(supervised.map((s) => s.stop()));
        await sweeper.stop();
      } finally {
        finished();
      }
    },
  };
}

interface SupervisedPool {
  stop(): Promise<void>;
}

/** Start one pool's runner and replace it whenever it stops on its own. */
async function supervisePool(options: WorkerOptions, pool: Pool): Promise<SupervisedPool> {
  let stopping = false;
  let current = await startRunner(options, pool);

  const replace = async (stopped: RunningWorker, error: unknown) => {
    if (stopping || stopped !== current) return;
    logger.error({ err: error, pool: pool.name }, 'the worker stopped on its own; starting a new one');
    await stopped.close();
    for (let attempt = 0; !stopping; attempt++) {
      try {
        const next = await startRunner(options, pool);
        if (stopping) return void (await next.close());
        current = next;
        supervise(next);
        logger.warn({ pool: pool.name }, 'the worker runs again');
        return;
      } catch (startError) {
        logger.warn({ err: startError, pool: pool.name }, 'could not start the worker yet; retrying');
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
    async stop() {
      stopping = true;
      await current.close();
    },
  };
}

interface RunningWorker {
  runner: Runner;
  /** Stop the runner if it still runs and unlock the jobs its pools hold. Idempotent. */
  close(): Promise<void>;
}

/**
 * One graphile-worker runner. Closing it also unlocks any job it still holds: graphile-worker can
 * exit with a cancelled job locked, and a locked job is only reclaimed after four hours — a new
 * worker must pick it up at once instead. A worker killed outright cannot do that, so every worker
 * also sweeps for jobs left locked by a dead one (startStaleJobSweeper).
 */
async function startRunner(options: WorkerOptions, pool: Pool): Promise<RunningWorker> {
  const events = new EventEmitter() as WorkerEvents;
  const poolIds: string[] = [];
  events.on('pool:create', ({ workerPool }) => poolIds.push(workerPool.id));
  const { concurrency } = pool;
  const runner = await run({
    connectionString: options.connectionString,
    concurrency,
    maxPoolSize: pool.maxPoolSize,
    preset: {
      worker: {
        // Fetch (and lock) jobs in batches and complete them in batches: far fewer queries per job
        // under load. A job waits in the local queue at most half the staleness period, so the
        // sweeper never takes a queued job for one left by a dead worker.
        ...(pool.batched ? { localQueue: { size: concurrency * 2, ttl: (staleDeliverySeconds() * 1000) / 2 } } : {}),
        // Completions and failures always go through graphile-worker's batcher, even unbatched (0 ms):
        // without it a completion that fails (its connection died) is a promise nobody awaits — an
        // unhandled rejection, which ends the process — instead of a runner that stops and is replaced.
        completeJobBatchDelay: pool.batched ? 5 : 0,
        failJobBatchDelay: pool.batched ? 5 : 0,
      },
    },
    taskList: pool.taskList,
    crontab: pool.crontab,
    pollInterval: options.pollInterval ?? 2000,
    noHandleSignals: true,
    logger: workerLogger,
    events,
  });
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
 * Frees the delivery and synthesis jobs (and their lanes) that a killed worker left locked
 * (release-stale.ts, synthesis-lanes.ts). Outside graphile-worker's queue on purpose: when every
 * worker slot is busy, a sweep queued as a job would wait behind the very jobs it must free. Runs
 * at start (a restarted worker frees what its killed predecessor held) and then every half
 * delivery staleness period.
 */
function startStaleJobSweeper(connectionString: string) {
  const { db, close } = connect(connectionString, { max: 1 });
  const staleSeconds = staleDeliverySeconds();
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = Promise.all([
      releaseStaleDeliveryJobs({ db, staleSeconds }).then(
        (released) => released > 0 && logger.warn({ released }, 'released delivery jobs left locked by a stopped worker'),
      ),
      releaseStaleSynthesisJobs({ db }).then(
        (released) => released > 0 && logger.warn({ released }, 'released synthesis jobs left locked by a stopped worker'),
      ),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'could not release stale jobs'));
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
