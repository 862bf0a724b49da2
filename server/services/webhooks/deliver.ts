import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../../db/schema';
import { addJob } from '../../../jobs/enqueue';
import { logger } from '../../logger';
import { openSecret } from '../../secrets';
import { nextRetryDelayMs } from './retry-schedule';
import { signatureHeader } from './signature';

import { USER_AGENT } from './user-agent';

export { USER_AGENT };
const RESPONSE_EXCERPT_BYTES = 1024;

export interface AttemptOutcome {
  statusCode?: number;
  error?: string;
  retryAfterSeconds?: number;
}

/** Connection errors, time-outs, 5xx, 408 and 429 are worth another attempt; other 4xx are final. */
export function isRetryable(outcome: AttemptOutcome): boolean {
  if (outcome.statusCode === undefined) return true;
  return outcome.statusCode >= 500 || outcome.statusCode === 408 || outcome.statusCode === 429;
}

function timeoutMs(): number {
  const n = Number(process.env.WEBHOOK_TIMEOUT_MS ?? 15_000);
  return Number.isFinite(n) && n > 0 ? n : 15_000;
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** Secrets to sign with: the current one, and the previous one during a rotation's grace period. */
function signingSecrets(webhook: typeof webhooks.$inferSelect): string[] {
  const secrets = [openSecret('webhook-secret', webhook.secretSealed)];
  if (webhook.previousSecretSealed && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt.getTime() > Date.now()) {
    secrets.push(openSecret('webhook-secret', webhook.previousSecretSealed));
  }
  return secrets;
}

export type UrlCheck = (url: string) => Promise<void>;

/**
 * One delivery attempt: POST the stored bytes, signed; record the attempt;
 * then mark the delivery succeeded, schedule the next attempt, or fail it.
 * Redirects are not followed. Returns what happened, for logs and tests.
 */
export async function attemptDelivery(db: Database, deliveryId: string, checkUrl: UrlCheck): Promise<'succeeded' | 'retrying' | 'failed' | 'skipped'> {
  const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  if (!delivery || delivery.status !== 'pending') return 'skipped';
  const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, delivery.webhookId));
  // A disabled subscription pauses deliveries; a deleted one ends them.
  if (!webhook || webhook.deletedAt) {
    await db.update(webhookDeliveries).set({ status: 'failed', nextAttemptAt: null }).where(eq(webhookDeliveries.id, deliveryId));
    return 'failed';
  }
  if (webhook.status !== 'active') return 'skipped';

  const attemptNumber = delivery.attemptCount + 1;
  const started = new Date();
  const t0 = performance.now();
  const outcome: AttemptOutcome = {};
  let responseBody: string | null = null;
  let responseHeaders: Record<string, string> | null = null;
  try {
    await checkUrl(webhook.url);
    const res = await fetch(webhook.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs()),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'X-Service-Event': delivery.eventType,
        'X-Service-Delivery': delivery.id,
        'X-Service-Signature': signatureHeader(signingSecrets(webhook), delivery.body),
      },
      body: delivery.body,
    });
    outcome.statusCode = res.status;
    outcome.retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'));
    responseHeaders = Object.fromEntries([...res.headers].filter(([name]) => ['content-type', 'retry-after', 'location'].includes(name)));
    const bytes = Buffer.from(await res.arrayBuffer());
    responseBody = bytes.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
  } catch (error) {
    outcome.error = error instanceof Error ? (error.name === 'TimeoutError' ? `Timed out after ${timeoutMs()} ms` : error.message) : String(error);
  }
  const latencyMs = Math.round(performance.now() - t0);
  const ok = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const delay = ok || !isRetryable(outcome) ? undefined : nextRetryDelayMs(attemptNumber, outcome.retryAfterSeconds);
  const result = ok ? 'succeeded' : delay === undefined ? 'failed' : 'retrying';

  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId,
      attemptNumber,
      startedAt: started,
      latencyMs,
      statusCode: outcome.statusCode ?? null,
      responseBody,
      responseHeaders,
      error: outcome.error ?? null,
    });
    const runAt = delay === undefined ? null : new Date(Date.now() + delay);
    await tx
      .update(webhookDeliveries)
      .set({
        attemptCount: attemptNumber,
        lastStatusCode: outcome.statusCode ?? null,
        lastAttemptAt: started,
        status: result === 'retrying' ? 'pending' : result,
        succeededAt: ok ? sql`now()` : null,
        nextAttemptAt: runAt,
      })
      .where(eq(webhookDeliveries.id, deliveryId));
    // Our own schedule: the next attempt is a new job, written with this attempt's record.
    if (runAt) await addJob(tx, 'deliver-webhook', { deliveryId }, { runAt, jobKey: `delivery:${deliveryId}` });
  });
  if (result !== 'succeeded') logger.info({ deliveryId, attemptNumber, statusCode: outcome.statusCode, error: outcome.error, result }, 'webhook attempt');
  return result;
}
