import { Agent as HttpAgent, request as httpRequest, type ClientRequestArgs, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions as HttpsRequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { postgresClientOf, type Database } from '@/db/client';
import { webhookAttempts, webhookDeliveries, webhooks } from '@/db/schema';
import { column, statement } from '@/db/statement';
import { logger } from '@/server/logger';
import { openSecret } from '@/server/secrets';
import { deliveryJobSql } from './delivery-job';
import { admitAttemptSoon, networkDeferral } from './lanes';
import { putBack } from './requeue';
import { nextRetryDelayMs } from './retry-schedule';
import { signatureHeader, standardSignatureHeader } from './signature';
import type { VettedAddress, VettedTarget } from './ssrf';

import { USER_AGENT } from './user-agent';
import { config } from '@/server/config';

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
  return config().WEBHOOK_TIMEOUT_MS;
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** Secrets to sign with: the current one, and the previous one during a rotation's grace period. */
function signingSecrets(webhook: Pick<DeliveryRow, 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_expires_ms'>): string[] {
  const secrets = [openSecret('webhook-secret', webhook.secret_sealed)];
  if (webhook.previous_secret_sealed && webhook.previous_secret_expires_ms !== null && webhook.previous_secret_expires_ms > Date.now()) {
    secrets.push(openSecret('webhook-secret', webhook.previous_secret_sealed));
  }
  return secrets;
}

/**
 * The SSRF check: refuses a target that is not deliverable, and answers the addresses it
 * vetted. The attempt connects to exactly those (DNS is not asked again: no rebinding window).
 */
export type UrlCheck = (url: string) => Promise<VettedTarget>;

/**
 * A `lookup` for net/tls connect that answers only the vetted addresses, whatever the host name:
 * the socket goes to an address the SSRF check approved, while the URL's host name stays the
 * Host header and the TLS server name (so certificate verification is unchanged).
 */
export function pinnedLookup(addresses: readonly VettedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
    process.nextTick(() => {
      if (usable.length === 0) {
        const error: NodeJS.ErrnoException = new Error(`no vetted IPv${wanted} address for ${_hostname}`);
        error.code = 'ENOTFOUND';
        callback(error, '', 0);
      } else if (options.all) {
        callback(
          null,
          usable.map((a) => ({ address: a.address, family: a.family })),
        );
      } else {
        callback(null, usable[0]!.address, usable[0]!.family);
      }
    });
  };
}

/** Pooled (keep-alive) sockets are keyed by the vetted address set too: a socket is reused only for the same pin. */
interface PinnedRequestArgs extends ClientRequestArgs {
  pinKey?: string;
}

class PinnedHttpAgent extends HttpAgent {
  override getName(options?: ClientRequestArgs): string {
    return `${super.getName(options)}|${(options as PinnedRequestArgs | undefined)?.pinKey ?? ''}`;
  }
}

class PinnedHttpsAgent extends HttpsAgent {
  override getName(options?: HttpsRequestOptions): string {
    return `${super.getName(options)}|${(options as PinnedRequestArgs | undefined)?.pinKey ?? ''}`;
  }
}

// One keep-alive pool per process. Sockets idle longer than the receiver's Keep-Alive hint are dropped.
const agents = {
  http: new PinnedHttpAgent({ keepAlive: true, maxFreeSockets: 64 }),
  https: new PinnedHttpsAgent({ keepAlive: true, maxFreeSockets: 64 }),
};

export interface PinnedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
}

/**
 * POST `body` to the vetted target, connecting only to its vetted addresses. Redirects are not
 * followed. `timeout` covers the whole exchange (connect, request, the full response body).
 * `onResponse` sees the status and headers as soon as they arrive; the promise resolves with the
 * first `excerptBytes` of the body once it has been read to the end, or rejects (connection
 * error, reset, time-out as an Error named TimeoutError).
 */
export function postPinned(
  target: VettedTarget,
  headers: OutgoingHttpHeaders,
  body: string,
  opts: { timeoutMs: number; excerptBytes: number; onResponse?: (res: PinnedResponse) => void },
): Promise<Buffer> {
  const { url, addresses } = target;
  const https = url.protocol === 'https:';
  const payload = Buffer.from(body, 'utf8');
  const args: PinnedRequestArgs = {
    method: 'POST',
    protocol: url.protocol,
    host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || (https ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, 'Content-Length': String(payload.length) },
    agent: https ? agents.https : agents.http,
    lookup: pinnedLookup(addresses),
    pinKey: addresses.map((a) => a.address).join(','),
  };
  return new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, excerpt?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(excerpt!);
    };
    const req = (https ? httpsRequest : httpRequest)(args, (res) => {
      opts.onResponse?.({ statusCode: res.statusCode ?? 0, headers: res.headers });
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept >= opts.excerptBytes) return;
        chunks.push(chunk);
        kept += chunk.length;
      });
      res.on('end', () => finish(undefined, Buffer.concat(chunks).subarray(0, opts.excerptBytes)));
      res.on('error', (error) => finish(error));
      res.on('aborted', () => finish(new Error('The connection was closed before the response ended')));
    });
    const timer = setTimeout(() => {
      const error = new Error(`Timed out after ${opts.timeoutMs} ms`);
      error.name = 'TimeoutError';
      finish(error);
      req.destroy(error);
    }, opts.timeoutMs);
    req.on('error', (error) => finish(error));
    req.end(payload);
  });
}

interface DeliveryRow {
  status: string;
  attempt_count: number;
  event_type: string;
  body: string;
  /** Marked as a test: a test event, or a delivery of a test network (`X-Service-Test: true`). */
  test: boolean;
  /** A test event is sent to a disabled subscription too (it checks the endpoint before enabling). */
  test_event: boolean;
  webhook_id: string | null;
  url: string;
  webhook_status: string;
  deleted_at: string | Date | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  /** epoch ms */
  previous_secret_expires_ms: number | null;
}

const d = webhookDeliveries;
const w = webhooks;
const at = webhookAttempts;
const deliveryIdParam = sql.placeholder('deliveryId');
const networkIdParam = sql.placeholder('networkId');

/** The delivery with what its attempt needs of the subscription, in one read (both rows of its network). */
const readDelivery = statement<DeliveryRow, { deliveryId: string; networkId: string }>(sql`
  select ${d.status}, ${d.attemptCount}, ${d.eventType}, ${d.body}, ${d.test}, ${d.eventId} is null as test_event,
         ${w.id} as webhook_id, ${w.url}, ${w.status} as webhook_status, ${w.deletedAt},
         ${w.secretSealed}, ${w.previousSecretSealed},
         (extract(epoch from ${w.previousSecretExpiresAt}) * 1000)::float8 as previous_secret_expires_ms
    from ${d} left join ${w} on ${w.networkId} = ${d.networkId} and ${w.id} = ${d.webhookId}
   where ${d.networkId} = ${networkIdParam} and ${d.id} = ${deliveryIdParam}::uuid`);

const p = (name: string) => sql.placeholder(name);

/**
 * The attempt's record, the delivery's new state and (when another attempt is due) its job, in
 * one statement. The next attempt is a new job (what server/jobs/enqueue.ts addJob does), with this record.
 */
const recordAttempt = statement<
  never,
  {
    deliveryId: string;
    networkId: string;
    attemptNumber: number;
    started: string;
    latencyMs: number;
    statusCode: number | null;
    responseBody: string | null;
    headersJson: string | null;
    error: string | null;
    status: string;
    ok: boolean;
    runAt: string | null;
  }
>(sql`
  with attempt as (
    insert into ${at} (${column(at.deliveryId)}, ${column(at.networkId)}, ${column(at.attemptNumber)}, ${column(at.startedAt)}, ${column(at.latencyMs)}, ${column(at.statusCode)},
                       ${column(at.responseBody)}, ${column(at.responseHeaders)}, ${column(at.error)})
    values (${deliveryIdParam}::uuid, ${networkIdParam}::text, ${p('attemptNumber')}::int, ${p('started')}::timestamptz, ${p('latencyMs')}::int, ${p('statusCode')}::int,
            ${p('responseBody')}::text, ${p('headersJson')}::text::jsonb, ${p('error')}::text)
  ), delivery as (
    update ${d}
       set ${column(d.attemptCount)} = ${p('attemptNumber')}::int, ${column(d.lastStatusCode)} = ${p('statusCode')}::int,
           ${column(d.lastAttemptAt)} = ${p('started')}::timestamptz, ${column(d.status)} = ${p('status')}::text,
           ${column(d.succeededAt)} = case when ${p('ok')}::boolean then now() end, ${column(d.nextAttemptAt)} = ${p('runAt')}::timestamptz
     where ${d.networkId} = ${networkIdParam} and ${d.id} = ${deliveryIdParam}::uuid
    returning ${d.id} as id
  )
  select ${deliveryJobSql({ deliveryId: sql`delivery.id`, networkId: sql`${networkIdParam}::text` }, { runAt: sql`${p('runAt')}` })}
    from delivery
   where ${p('runAt')}::timestamptz is not null`);

/**
 * One delivery attempt: POST the stored bytes, signed; record the attempt;
 * then mark the delivery succeeded, schedule the next attempt, or fail it.
 * Redirects are not followed. Returns what happened, for logs and tests.
 *
 * Two statements on the database per attempt: one read (delivery + subscription), and one
 * write that records the attempt, updates the delivery and (when another attempt is due)
 * adds its job — atomically, being one statement.
 */
export async function attemptDelivery({
  db,
  networkId,
  deliveryId,
  checkUrl,
}: {
  db: Database;
  networkId: string;
  deliveryId: string;
  checkUrl: UrlCheck;
}): Promise<'succeeded' | 'retrying' | 'failed' | 'skipped' | 'deferred'> {
  const client = postgresClientOf(db);
  // Fair delivery (lanes.ts): beyond its network's or its endpoint's share of this process's slots, a job waits.
  const held = networkDeferral({ networkId, deliveryId });
  if (held) {
    await putBack(client, { deliveryId, networkId, queueName: held.queueName, runAt: held.runAt });
    return 'deferred';
  }
  const [row] = await readDelivery(client, { deliveryId, networkId });
  if (!row || row.status !== 'pending') return 'skipped';
  // A disabled subscription pauses deliveries; a deleted one ends them.
  if (!row.webhook_id || row.deleted_at) {
    await db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null })
      .where(and(eq(webhookDeliveries.networkId, networkId), eq(webhookDeliveries.id, deliveryId)));
    return 'failed';
  }
  if (row.webhook_status !== 'active' && !row.test_event) return 'skipped';
  const admission = await admitAttemptSoon({ networkId, webhookId: row.webhook_id, deliveryId });
  if (!admission.admitted) {
    await putBack(client, { deliveryId, networkId, queueName: admission.queueName, runAt: admission.runAt });
    return 'deferred';
  }

  const attemptNumber = row.attempt_count + 1;
  const started = new Date();
  const t0 = performance.now();
  const outcome: AttemptOutcome = {};
  let responseBody: string | null = null;
  let responseHeaders: Record<string, string> | null = null;
  try {
    const target = await checkUrl(row.url);
    const secrets = signingSecrets(row);
    const timestamp = Math.floor(Date.now() / 1000);
    const bytes = await postPinned(
      target,
      {
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'X-Service-Event': row.event_type,
        'X-Service-Delivery': deliveryId,
        'X-Service-Signature': signatureHeader(secrets, row.body),
        ...(row.test ? { 'X-Service-Test': 'true' } : {}),
        // Standard Webhooks (standardwebhooks.com), beside the spec's headers: the timestamp is this attempt's.
        'webhook-id': deliveryId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': standardSignatureHeader(secrets, deliveryId, timestamp, row.body),
      },
      row.body,
      {
        timeoutMs: timeoutMs(),
        excerptBytes: RESPONSE_EXCERPT_BYTES,
        onResponse: (res) => {
          outcome.statusCode = res.statusCode;
          const retryAfter = res.headers['retry-after'];
          outcome.retryAfterSeconds = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
          responseHeaders = Object.fromEntries(
            Object.entries(res.headers)
              .filter(([name]) => ['content-type', 'retry-after', 'location'].includes(name))
              .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
          );
        },
      },
    );
    // Postgres text cannot hold NUL: a receiver answering with one must not stop the attempt being recorded.
    responseBody = bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
  }
  const latencyMs = Math.round(performance.now() - t0);
  admission.done({ latencyMs, responded: outcome.statusCode !== undefined });
  const ok = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const delay = ok || !isRetryable(outcome) ? undefined : nextRetryDelayMs(attemptNumber, outcome.retryAfterSeconds);
  const result = ok ? 'succeeded' : delay === undefined ? 'failed' : 'retrying';
  const runAt = delay === undefined ? null : new Date(Date.now() + delay).toISOString();
  const statusCode = outcome.statusCode ?? null;
  const headersJson = responseHeaders === null ? null : JSON.stringify(responseHeaders);

  await recordAttempt(client, {
    deliveryId,
    networkId,
    attemptNumber,
    started: started.toISOString(),
    latencyMs,
    statusCode,
    responseBody,
    headersJson,
    error: outcome.error ?? null,
    status: result === 'retrying' ? 'pending' : result,
    ok,
    runAt,
  });
  if (result !== 'succeeded')
    logger.info({ deliveryId, attemptNumber, statusCode: outcome.statusCode, error: outcome.error, result }, 'webhook attempt');
  return result;
}
