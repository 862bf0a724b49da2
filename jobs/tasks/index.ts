import type { Task, TaskList } from 'graphile-worker';
import { z } from 'zod';
import { pruneIdempotencyKeys, pruneIdempotencyKeysPayload } from './prune-idempotency-keys';

/**
 * Every task the worker runs, with the zod schema of its payload. Payloads carry
 * ids only; a task re-reads the state it needs and returns early when the work
 * is no longer relevant.
 */
export const taskPayloadSchemas = {
  'prune-idempotency-keys': pruneIdempotencyKeysPayload,
} satisfies Record<string, z.ZodType>;

export type TaskName = keyof typeof taskPayloadSchemas;
export type TaskPayloads = { [K in TaskName]: z.input<(typeof taskPayloadSchemas)[K]> };

export const crontab = ['*/15 * * * * prune-idempotency-keys'].join('\n');

function task<T extends TaskName>(name: T, run: (payload: z.output<(typeof taskPayloadSchemas)[T]>) => Promise<unknown>): Task {
  return async (raw) => {
    await run(taskPayloadSchemas[name].parse(raw ?? {}) as z.output<(typeof taskPayloadSchemas)[T]>);
  };
}

export const taskList: TaskList = {
  'prune-idempotency-keys': task('prune-idempotency-keys', pruneIdempotencyKeys),
};
