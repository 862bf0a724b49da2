import type { ServerResponse } from 'node:http';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { AppError } from '@/server/errors';
import { logger } from '@/server/logger';
import { openApiDocument } from '@/server/openapi';
import { appRouter } from '@/server/routers';
import { admitWithoutOperation, createContext, requestState, type AppRequest, type Context, type RequestState } from '@/server/trpc';
import { MAX_BODY_BYTES, nulRefused, parseJsonBody, readBody, urlContainsNul } from './body';
import { requestFingerprint } from './idempotency';
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
 * envelope (the OpenAPI adapter adds fields of its own), and a binary answer
 * (audio) replaces the procedure's JSON output.
 */
function finishResponses(res: ServerResponse, state: RequestState): void {
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
    return end(body);
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
      if (urlContainsNul(url)) throw nulRefused();
      state.inputChecked = true; // the body is checked by parseJsonBody
      if (BODY_METHODS.has(req.method!)) {
        const raw = await readBody(req);
        req.body = parseJsonBody(raw, req.headers['content-type']);
        req.headers['content-type'] = 'application/json';
        const idempotencyKey = req.headers['idempotency-key'];
        // Only read here; the procedure's last middleware takes it (server/http/idempotency.ts).
        if (req.method === 'POST' && typeof idempotencyKey === 'string') {
          state.idempotency = { key: idempotencyKey, fingerprint: requestFingerprint(req.method, req.url, raw) };
        }
      }
      finishResponses(res, state);
      await handle(req, res, async () => {
        // No operation at this path: 404 — after the credential gate every request passes, so the
        // answer carries RateLimit-* and an unknown path is no way around the lockout.
        const ctx = createContext({ req });
        try {
          await admitWithoutOperation(ctx);
          sendProblem(res, problem('not-found', 'No operation at this path. The reference is at /docs.'), ctx.http.headers);
        } catch (error) {
          sendProblem(res, problemFromError(error), { ...ctx.http.headers, ...errorHeaders(error) });
        }
      });
    } catch (error) {
      const p = problemFromError(error);
      if (p.status === 503) logger.warn({ err: error }, 'request failed before routing: database unavailable');
      else if (p.status >= 500) logger.error({ err: error }, 'request failed before routing');
      // A 413's body is being drained (readBody): the connection stays usable.
      sendProblem(res, p, errorHeaders(error));
    }
  };
}

