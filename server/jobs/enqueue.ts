import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import type { TaskName, TaskPayloads } from './payloads';

/**
 * The one module that builds graphile-worker jobs, through its public functions (`add_job`,
 * `add_jobs`): by value (`enqueueJob`) or as SQL inside a statement that makes what the job is for
 * (`jobSql`, `jobSpecSql`), so the job exists exactly when that change commits. The payload's
 * fields are the task's (TaskPayloads, from the zod schemas the worker parses them with): a field
 * missing, misspelt or extra is a type error wherever a job is built.
 */
export interface EnqueueOptions {
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Replaces a pending job with the same key instead of adding a second one. */
  jobKey?: string;
}

/** A payload built in SQL: each of the task's fields as an SQL expression. */
export type SqlPayload<T extends TaskName> = { [K in keyof TaskPayloads[T]]-?: SQL };

/** `add_job`'s options, as SQL expressions; `jobKeyMode` as graphile-worker names it. */
export interface SqlJobOptions {
  queueName?: SQL;
  runAt?: SQL;
  maxAttempts?: SQL;
  jobKey?: SQL;
  jobKeyMode?: 'replace' | 'preserve_run_at';
}

/**
 * A name of ours (a task, a payload field) as an SQL literal, not a parameter: it is part of the
 * statement's text, so a prepared hot-path statement (db/statement.ts) can hold a job.
 */
function literal(name: string): SQL {
  if (!/^[a-z][\w-]*$/i.test(name)) throw new Error(`not a task or field name: ${JSON.stringify(name)}`);
  return sql.raw(`'${name}'`);
}

/** `json_build_object('field', expression, …)`: the payload, built where its values are. */
function payloadSql(payload: Record<string, SQL>): SQL {
  const pairs = Object.entries(payload).map(([field, value]) => sql`${literal(field)}::text, ${value}`);
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

const nullOr = (value: SQL | undefined, type: SQL): SQL => (value ? sql`(${value})::${type}` : sql`null::${type}`);

/** `graphile_worker.add_job(…)` for `task`, as an expression to select inside a statement. */
export function jobSql<T extends TaskName>(task: T, payload: SqlPayload<T>, options: SqlJobOptions = {}): SQL {
  return sql`graphile_worker.add_job(
    ${literal(task)}::text,
    ${payloadSql(payload as Record<string, SQL>)},
    queue_name => ${nullOr(options.queueName, sql`text`)},
    run_at => ${nullOr(options.runAt, sql`timestamptz`)},
    max_attempts => ${nullOr(options.maxAttempts, sql`int`)},
    job_key => ${nullOr(options.jobKey, sql`text`)},
    job_key_mode => ${literal(options.jobKeyMode ?? 'replace')}::text
  )`;
}

/** One `graphile_worker.job_spec` for `graphile_worker.add_jobs`: many jobs in one call. */
export function jobSpecSql<T extends TaskName>(task: T, payload: SqlPayload<T>, options: Omit<SqlJobOptions, 'jobKeyMode'> = {}): SQL {
  return sql`row(${literal(task)}::text, ${payloadSql(payload as Record<string, SQL>)}, ${nullOr(options.queueName, sql`text`)}, ${nullOr(options.runAt, sql`timestamptz`)},
    ${nullOr(options.maxAttempts, sql`integer`)}, ${nullOr(options.jobKey, sql`text`)}, null::integer, null::text[])::graphile_worker.job_spec`;
}

/** `graphile_worker.add_jobs(specs)`: `specs` an SQL array of `jobSpecSql`s. Returns the jobs (a set). */
export function addJobsSql(specs: SQL): SQL {
  return sql`graphile_worker.add_jobs(${specs})`;
}

/**
 * Add a graphile-worker job on the caller's transaction, so the job exists exactly when the change
 * that caused it commits (`quickAddJob` would use its own connection and could run a job for a
 * rolled-back change, or lose one).
 */
export async function enqueueJob<T extends TaskName>(tx: Queryable, task: T, payload: TaskPayloads[T], options: EnqueueOptions = {}): Promise<void> {
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
