import { Logger as WorkerLogger, run, type Runner, type TaskList } from 'graphile-worker';
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

/** Start graphile-worker (in the web process, or alone with `npm run worker`). */
export async function startWorker(options: WorkerOptions): Promise<Runner> {
  return run({
    connectionString: options.connectionString,
    concurrency: options.concurrency ?? 5,
    taskList: options.taskList ?? defaultTaskList,
    crontab: options.crontab ?? defaultCrontab,
    pollInterval: options.pollInterval ?? 2000,
    noHandleSignals: true,
    logger: workerLogger,
  });
}
