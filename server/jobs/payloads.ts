import { z } from 'zod';

/**
 * Every task the worker runs, with the zod schema of its payload: what a job carries, in the layer
 * that builds jobs (enqueue.ts) and below the services that add them. The worker's tasks
 * (jobs/tasks) parse each payload with its schema here. Payloads carry ids only; a task re-reads
 * the state it needs and returns early when the work is no longer relevant. `networkId` names the
 * network of the row a job is about (every statement on a tenant table names it); jobs queued
 * before it was added lack it.
 */
export const taskPayloadSchemas = {
  'prune-idempotency-keys': z.object({}).passthrough(),
  'expire-offers': z.object({}).passthrough(),
  'synthesize-creative': z.object({ creativeId: z.string().min(1), networkId: z.string().min(1).optional() }),
  'deliver-webhook': z.object({ deliveryId: z.string().uuid(), networkId: z.string().min(1).optional() }),
  'auto-disable-webhooks': z.object({}).passthrough(),
  'prune-webhook-deliveries': z.object({}).passthrough(),
  'notice-expiring-keys': z.object({}).passthrough(),
  'withdraw-lapsed-consents': z.object({}).passthrough(),
  'maintain-tracking': z.object({}).passthrough(),
  'check-flight-pacing': z.object({}).passthrough(),
  'send-email': z.object({ emailId: z.string().min(1) }),
  'request-sign-in': z.object({ email: z.string().min(1) }),
} satisfies Record<string, z.ZodType>;

export type TaskName = keyof typeof taskPayloadSchemas;
/** What a job of each task is given (the schema's input). */
export type TaskPayloads = { [K in TaskName]: z.input<(typeof taskPayloadSchemas)[K]> };
/** What each task runs with (the schema's output). */
export type TaskPayload<T extends TaskName> = z.output<(typeof taskPayloadSchemas)[T]>;
