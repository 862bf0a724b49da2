import type { ServerResponse } from 'node:http';
import { and, eq, lte } from 'drizzle-orm';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { database, isDatabaseUnavailable, type Database } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { authenticate } from '../auth/principal';
import { config } from '../config';
import { AppError } from '../errors';
import { logger } from '../logger';
import { openApiDocument } from '../openapi';
import { appRouter } from '../routers';
import { createContext, requestState, type AppRequest, type Context, type RequestState } from '../trpc';
import { MAX_BODY_BYTES, nulRefused, parseJsonBody, readBody, urlContainsNul } from './body';
import {
  completeIdempotencyKey,
  releaseIdempotencyKey,
  REPLAYED_HEADERS,
  requestFingerprint,
  reserveIdempotencyKey,
  type StoredResponse,
} from './idempotency';
import { errorHeaders, problem, problemFromError, PROBLEM_CONTENT_TYPE, type Problem } from './problem';

export const REST_PREFIX = '/v1';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

function sendProblem(res: ServerResponse, p: Problem, headers: Record<string, string> = {}): void {
  sendJson(res, p.status, p, { ...headers, 'Content-Type': PROBLEM_CONTENT_TYPE });
}

/** The envelope for an error body written by the OpenAPI adapter: our formatter put it in `data.problem`. */
function envelopeOf(status: number, chunk: unknown): Problem {
  try {
    const parsed = JSON.parse(String(chunk)) as Partial<Problem> & { data?: { problem?: Problem } };
    if (parsed.data?.problem) return parsed.data.problem;
    if (parsed.type && parsed.title && parsed.status && parsed.detail) return parsed as Problem;
  } catch {
    // fall through to a generic envelope
  }
  return status >= 500
    ? problem('internal', 'An unexpected error occurred. It is safe to retry the request.')
    : problemFromError(new AppError(status === 404 ? 'not-found' : 'bad-request', 'The request could not be served.'));
}

/**
 * Every response leaves through here: error bodies become exactly the problem
 * envelope, and (for an idempotent POST) the final response is stored before
 * the client sees it, so an immediate retry replays instead of colliding.
 */
function finishResponses(res: ServerResponse, state: RequestState, beforeSend?: (r: StoredResponse | undefined) => Promise<void>): void {
  const { http } = state;
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  res.end = ((chunk?: unknown) => {
    let body: unknown = chunk;
    if (res.statusCode >= 400) {
      const p = envelopeOf(res.statusCode, chunk);
      res.statusCode = p.status;
      res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
      body = JSON.stringify(p);
      res.setHeader('Content-Length', Buffer.byteLength(body as string));
    } else if (http.raw) {
      res.setHeader('Content-Type', http.raw.contentType);
      res.setHeader('Content-Length', http.raw.body.length);
      body = http.raw.body;
    }
    // Already stored with the operation, in its transaction (idempotentTransaction in server/trpc.ts).
    if (!beforeSend || state.idempotency?.stored) return end(body);
    // Binary answers are not remembered: a retry produces them again.
    let stored: StoredResponse | undefined;
    if (!http.raw || res.statusCode >= 400) {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      let parsed: unknown = null;
      try {
        parsed = body === undefined || body === '' ? null : JSON.parse(String(body));
      } catch {
        parsed = null;
      }
      stored = { status: res.statusCode, headers, body: parsed };
    }
    // The response waits for the key to be settled, so an immediate retry replays
    // (or runs again after a 5xx) instead of colliding. If the database is gone
    // at that moment, the client gets its answer anyway and the key is settled in
    // the background as soon as the database is back (see settleLater).
    beforeSend(stored)
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'could not settle the Idempotency-Key now; retrying in the background');
        settleLater(() => beforeSend(stored));
      })
      .finally(() => end(body));
    return res;
  }) as ServerResponse['end'];
}

export function createRestHandler() {
  const handle = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext,
    maxBodySize: MAX_BODY_BYTES,
    responseMeta({ ctx, errors }) {
      const http = (ctx as Context | undefined)?.http;
      const error = errors[0];
      if (error) return { status: problemFromError(error).status, headers: { ...http?.headers, ...errorHeaders(error) } };
      return { status: http?.status ?? 200, headers: http?.headers ?? {} };
    },
    onError({ error, path }) {
      const { status } = problemFromError(error);
      if (status === 503) logger.warn({ err: error.cause ?? error, procedure: path }, 'request failed: database unavailable');
      else if (status >= 500) logger.error({ err: error.cause ?? error, procedure: path }, 'request failed');
    },
  });

  return async function serveRest(req: AppRequest, res: ServerResponse): Promise<void> {
    const state = requestState(req);
    res.setHeader('Request-Id', state.requestId);
    const url = req.url!.slice(REST_PREFIX.length) || '/';
    if (req.method === 'GET' && url.split('?')[0] === '/openapi.json') {
      sendJson(res, 200, openApiDocument(), { 'Cache-Control': 'no-cache' });
      return;
    }
    req.url = url;
    try {
      let storeResponse: ((r: StoredResponse | undefined) => Promise<void>) | undefined;
      if (urlContainsNul(url)) throw nulRefused();
      state.inputChecked = true; // the body is checked by parseJsonBody
      if (BODY_METHODS.has(req.method!)) {
        const raw = await readBody(req);
        req.body = parseJsonBody(raw, req.headers['content-type']);
        req.headers['content-type'] = 'application/json';
        const idempotencyKey = req.headers['idempotency-key'];
        if (req.method === 'POST' && typeof idempotencyKey === 'string') {
          const hook = await claimIdempotency(req, res, idempotencyKey, raw);
          if (hook === null) return;
          storeResponse = hook;
        }
      }
      finishResponses(res, state, storeResponse);
      await handle(req, res);
    } catch (error) {
      const p = problemFromError(error);
      if (p.status === 503) logger.warn({ err: error }, 'request failed before routing: database unavailable');
      else if (p.status >= 500) logger.error({ err: error }, 'request failed before routing');
      // A 413's body is being drained (readBody): the connection stays usable.
      sendProblem(res, p, errorHeaders(error));
    }
  };
}

/**
 * Reserve the Idempotency-Key, or answer from it. Returns the hook that stores
 * the final response, `undefined` when the request cannot be tied to a key
 * (bad credentials: the normal path answers 401), or null after a replay.
 */
async function claimIdempotency(
  req: AppRequest,
  res: ServerResponse,
  key: string,
  raw: Buffer,
): Promise<((r: StoredResponse | undefined) => Promise<void>) | undefined | null> {
  const db = database();
  const state = requestState(req);
  try {
    state.principal = await authenticate(req.headers.authorization);
  } catch (error) {
    // Bad credentials: the normal path answers 401. Anything else (the database
    // being unreachable) must not let the request run without its key.
    if (error instanceof AppError) return undefined;
    throw error;
  }
  const apiKeyId = state.principal.keyId;
  const fingerprint = requestFingerprint(req.method!, req.url!, raw);
  let reservation: Awaited<ReturnType<typeof reserveIdempotencyKey>>;
  try {
    reservation = await reserveIdempotencyKey(db, { apiKeyId, key, fingerprint, ttlHours: config().IDEMPOTENCY_TTL_HOURS });
  } catch (error) {
    // The connection died with the reservation sent: it may have been stored,
    // and the request answers 503 without having run. Release it once the
    // database is back, or every retry with this key gets 409 for 24 h.
    if (isDatabaseUnavailable(error)) {
      const failedAt = new Date();
      settleLater(() => releaseUnansweredReservation(db, apiKeyId, key, fingerprint, failedAt));
    }
    throw error;
  }
  if (reservation.kind === 'replay') {
    const { status, headers, body } = reservation.response;
    state.log.keyId = apiKeyId;
    state.log.route = 'idempotent replay';
    const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json';
    sendJson(res, status, body, { ...headers, 'Idempotent-Replayed': 'true', 'Content-Type': contentType });
    return null;
  }
  const claim = { apiKeyId, key, stored: false };
  state.idempotency = claim;
  return async (response) => {
    if (response && isRemembered(response.status)) await completeIdempotencyKey(db, apiKeyId, key, response);
    else await releaseIdempotencyKey(db, apiKeyId, key);
  };
}

/**
 * Drop a reservation whose insert may or may not have committed before the
 * connection died: only a `running` claim of this very request (same
 * fingerprint) made no later than the failure, so that a retry which has
 * claimed the key since is left alone (created_at is the database clock; a
 * retry comes at least a round trip later, far more than any sane clock skew).
 */
async function releaseUnansweredReservation(db: Database, apiKeyId: string, key: string, fingerprint: string, failedAt: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.apiKeyId, apiKeyId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.state, 'running'),
        eq(idempotencyKeys.fingerprint, fingerprint),
        lte(idempotencyKeys.createdAt, failedAt),
      ),
    );
}

/**
 * Settle an Idempotency-Key (store the response, or release it after a 5xx)
 * that could not be settled when the response left, because the database was
 * unreachable. Without this a key stays `running` until it expires (24 h), and
 * every retry with it gets 409 — a 5xx would in effect be remembered. Retried
 * every half second for a minute (a restart or fail-over), then every 10 s for
 * about 8 minutes more; a process that exits before then leaves the key to expire.
 */
const SETTLE_DELAYS_MS = [...Array<number>(120).fill(500), ...Array<number>(50).fill(10_000)];
function settleLater(settle: () => Promise<void>, attempt = 0): void {
  const delay = SETTLE_DELAYS_MS[attempt];
  if (delay === undefined) {
    logger.error('gave up settling an Idempotency-Key: it stays reserved until it expires');
    return;
  }
  setTimeout(() => {
    settle().then(
      () => logger.info({ attempt: attempt + 1 }, 'Idempotency-Key settled after the database came back'),
      () => settleLater(settle, attempt + 1),
    );
  }, delay).unref();
}

/**
 * Which answers an Idempotency-Key remembers: those of an operation that ran
 * (2xx, and 4xx such as 404 or 409 from the rules). A request refused before
 * it ran — invalid input, no permission, rate limited, too large — and any
 * 5xx are forgotten, so the client may fix the request or retry it.
 */
const NOT_RUN = new Set([400, 401, 403, 413, 415, 429]);
function isRemembered(status: number): boolean {
  return status < 500 && !NOT_RUN.has(status);
}
