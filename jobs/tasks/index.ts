import type { JobHelpers, Task, TaskList } from 'graphile-worker';
import { z } from 'zod';
import { expireOffers } from '@/server/services/offers/expire-offers';
import { database } from '@/db/client';
import { autoDisableFailingWebhooks } from '@/server/services/webhooks/auto-disable';
import { pruneWebhookDeliveries } from '@/server/services/webhooks/retention';
import { deliverWebhook, deliverWebhookPayload } from './deliver-webhook';
import { pruneIdempotencyKeys, pruneIdempotencyKeysPayload } from './prune-idempotency-keys';
import { synthesizeCreative, synthesizeCreativePayload } from './synthesize-creative';

/**
 * Every task the worker runs, with the zod schema of its payload. Payloads carry
 * ids only; a task re-reads the state it needs and returns early when the work
 * is no longer relevant.
 */
export const taskPayloadSchemas = {
  'prune-idempotency-keys': pruneIdempotencyKeysPayload,
  'expire-offers': z.object({}).passthrough(),
  'synthesize-creative': synthesizeCreativePayload,
  'deliver-webhook': deliverWebhookPayload,
  'auto-disable-webhooks': z.object({}).passthrough(),
  'prune-webhook-deliveries': z.object({}).passthrough(),
} satisfies Record<string, z.ZodType>;

export type TaskName = keyof typeof taskPayloadSchemas;
export type TaskPayloads = { [K in TaskName]: z.input<(typeof taskPayloadSchemas)[K]> };

export const crontab = [
  '*/15 * * * * prune-idempotency-keys',
  '* * * * * expire-offers',
  '7 * * * * auto-disable-webhooks',
  '37 * * * * prune-webhook-deliveries',
].join('\n');

function task<T extends TaskName>(name: T, run: (payload: z.output<(typeof taskPayloadSchemas)[T]>, helpers: JobHelpers) => Promise<unknown>): Task {
  return async (raw, helpers) => {
    await run(taskPayloadSchemas[name].parse(raw ?? {}) as z.output<(typeof taskPayloadSchemas)[T]>, helpers);
  };
}

export const taskList: TaskList = {
  'prune-idempotency-keys': task('prune-idempotency-keys', pruneIdempotencyKeys),
  'expire-offers': task('expire-offers', () => expireOffers({ db: database() })),
  'synthesize-creative': task('synthesize-creative', synthesizeCreative),
  'deliver-webhook': task('deliver-webhook', deliverWebhook),
  'auto-disable-webhooks': task('auto-disable-webhooks', () => autoDisableFailingWebhooks({ db: database() })),
  'prune-webhook-deliveries': task('prune-webhook-deliveries', () => pruneWebhookDeliveries({ db: database() })),
};
