import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import postgres from 'postgres';
import { connect } from '../db/client';
import { logger } from '../server/logger';
import { releaseStaleDeliveryJobs, staleDeliverySeconds } from '../server/services/webhooks/release-stale';
import { crontab as defaultCrontab, taskList as defaultTaskList } from './tasks';

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

/**
 * Start graphile-worker (in the web process, or alone with `npm run worker`).
 * `stop()` also unlocks any job this process still holds: graphile-worker can
 * exit with a cancelled job locked, and a locked job is only reclaimed after
 * four hours — a restarted worker must pick it up at once instead. A worker
 * killed outright cannot do that, so every worker also sweeps for delivery
 * jobs left locked by a dead one (see release-stale.ts).
 */
export async function startWorker(options: WorkerOptions): Promise<Runner> {
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
    taskList: options.taskList ?? defaultTaskList,
    crontab: options.crontab ?? defaultCrontab,
    pollInterval: options.pollInterval ?? 2000,
    noHandleSignals: true,
    logger: workerLogger,
    events,
  });
  const sweeper = startStaleDeliverySweeper(options.connectionString);
  const stop = runner.stop.bind(runner);
  return Object.assign(runner, {
    async stop(reason?: string) {
      try {
        await sweeper.stop();
        await stop(reason);
      } finally {
        await unlockJobsOf(options.connectionString, poolIds);
      }
    },
  });
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
    running = releaseStaleDeliveryJobs(db, staleSeconds)
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
