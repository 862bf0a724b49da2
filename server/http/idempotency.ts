import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { postgresClientOf, type Database } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { AppError, badRequest, conflict } from '../errors';
import { openSecret, sealSecret } from '../secrets';

/** Stored responses may carry a token shown once (a new API key): they rest encrypted. */
const SEAL_PURPOSE = 'idempotent-response';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A reserved Idempotency-Key; `stored` once its answer committed with the operation. */
export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
  stored: boolean;
}

/** Response headers an idempotent replay repeats. */
export const REPLAYED_HEADERS = ['etag', 'location'];

/** The answer to remember for a procedure's output, as the REST layer sends it. */
export function storedResponseOf(http: { status?: number; headers: Record<string, string> }, data: unknown): StoredResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(http.headers)) {
    if (REPLAYED_HEADERS.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  return { status: http.status ?? 200, headers, body: data === undefined ? null : (JSON.parse(JSON.stringify(data)) as unknown) };
}

export type Reservation = { kind: 'reserved' } | { kind: 'replay'; response: StoredResponse };

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What makes two requests "the same request": method, path with query, and the exact body bytes. */
export function requestFingerprint(method: string, url: string, body: Buffer): string {
  return createHash('sha256').update(`${method} ${url}\n`).update(body).digest('hex');
}

/**
 * Claim an Idempotency-Key for this API key, or find what it already holds:
 * the stored response (replay), a different request (422), or a request still
 * in flight (409). An expired key is forgotten and claimed anew.
 */
export async function reserveIdempotencyKey(
  db: Database,
  input: { apiKeyId: string; key: string; fingerprint: string; ttlHours: number },
): Promise<Reservation> {
  if (!IDEMPOTENCY_KEY_PATTERN.test(input.key)) {
    throw badRequest('Idempotency-Key must be 1–255 visible ASCII characters, e.g. a UUID.');
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    // A prepared statement (one round trip, planned once): this runs on every POST that sends a key.
    const inserted = await postgresClientOf(db)`
      insert into idempotency_keys (api_key_id, key, fingerprint, state, expires_at)
      values (${input.apiKeyId}, ${input.key}, ${input.fingerprint}, 'running', now() + make_interval(secs => ${input.ttlHours * 3600}::float8))
      on conflict do nothing
      returning key`;
    if (inserted.length) return { kind: 'reserved' };

    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, input.apiKeyId), eq(idempotencyKeys.key, input.key)));
    if (!row) continue; // pruned between the two statements
    if (row.expiresAt.getTime() <= Date.now()) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.apiKeyId, input.apiKeyId), eq(idempotencyKeys.key, input.key), eq(idempotencyKeys.fingerprint, row.fingerprint)));
      continue;
    }
    if (row.fingerprint !== input.fingerprint) {
      throw new AppError(
        'idempotency-key-reused',
        'This Idempotency-Key was already used for a different request. Use a new key for each distinct operation.',
      );
    }
    if (row.state === 'running') {
      throw conflict('A request with this Idempotency-Key is still being processed. Retry after it completes.');
    }
    return {
      kind: 'replay',
      response: {
        status: row.responseStatus!,
        headers: row.responseHeaders ?? {},
        body: JSON.parse(openSecret(SEAL_PURPOSE, row.responseBody as string)),
      },
    };
  }
  throw conflict('A request with this Idempotency-Key is being processed. Retry shortly.');
}

/** Remember the response of a finished request (any status below 500). */
export async function completeIdempotencyKey(db: Database, apiKeyId: string, key: string, response: StoredResponse) {
  const sealed = sealSecret(SEAL_PURPOSE, JSON.stringify(response.body));
  await postgresClientOf(db)`
    update idempotency_keys
       set state = 'done', response_status = ${response.status},
           response_headers = ${JSON.stringify(response.headers)}::jsonb, response_body = ${JSON.stringify(sealed)}::jsonb
     where api_key_id = ${apiKeyId} and key = ${key}`;
}

/**
 * Forget a claim whose request failed with a 5xx, so a retry runs again — unless
 * it is `done`: the operation committed together with its response (see
 * `idempotentTransaction` in server/trpc.ts) although the client was told it failed;
 * a retry then replays that response instead of running the operation twice.
 */
export async function releaseIdempotencyKey(db: Database, apiKeyId: string, key: string) {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'running')));
}
