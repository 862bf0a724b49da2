import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import postgres from 'postgres';
import { logger } from '../server/logger';
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
  else if (level === 'info') logger.info(fields, message);
  else logger.debug(fields, message);
});

/**
 * Start graphile-worker (in the web process, or alone with `npm run worker`).
 * `stop()` also unlocks any job this process still holds: graphile-worker can
 * exit with a cancelled job locked, and a locked job is only reclaimed after
 * four hours — a restarted worker must pick it up at once instead.
 */
export async function startWorker(options: WorkerOptions): Promise<Runner> {
  const events = new EventEmitter() as WorkerEvents;
  const poolIds: string[] = [];
  events.on('pool:create', ({ workerPool }) => poolIds.push(workerPool.id));
  const runner = await run({
    connectionString: options.connectionString,
    concurrency: options.concurrency ?? 5,
    taskList: options.taskList ?? defaultTaskList,
    crontab: options.crontab ?? defaultCrontab,
    pollInterval: options.pollInterval ?? 2000,
    noHandleSignals: true,
    logger: workerLogger,
    events,
  });
  const stop = runner.stop.bind(runner);
  return Object.assign(runner, {
    async stop(reason?: string) {
      try {
        await stop(reason);
      } finally {
        await unlockJobsOf(options.connectionString, poolIds);
      }
    },
  });
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
