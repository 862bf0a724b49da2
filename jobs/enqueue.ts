import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import type { TaskName, TaskPayloads } from './tasks';

export interface EnqueueOptions {
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Replaces a pending job with the same key instead of adding a second one. */
  jobKey?: string;
}

/**
 * Add a graphile-worker job on the caller's transaction, so the job exists
 * exactly when the change that caused it commits (`quickAddJob` would use its
 * own connection and could run a job for a rolled-back change, or lose one).
 */
export async function enqueueJob<T extends TaskName>(
  tx: Queryable,
  task: T,
  payload: TaskPayloads[T],
  options: EnqueueOptions = {},
): Promise<void> {
  await addJob(tx, task, payload, options);
}

/** The untyped primitive under `enqueueJob`, for task names outside the registry (tests). */
export async function addJob(tx: Queryable, identifier: string, payload: unknown, options: EnqueueOptions = {}): Promise<void> {
  await tx.execute(sql`select graphile_worker.add_job(
    ${identifier}::text,
    ${JSON.stringify(payload)}::json,
    queue_name => ${options.queueName ?? null}::text,
    run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts => ${options.maxAttempts ?? null}::int,
    job_key => ${options.jobKey ?? null}::text
  )`);
}
