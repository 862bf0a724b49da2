import type { ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { normalizePath } from 'trpc-to-openapi';
import { logger } from '@/server/logger';
import { openApiDocument } from '@/server/openapi';
import { appRouter } from '@/server/routers';
import { admitWithoutOperation, createContext, requestState, type AppRequest, type HttpOut } from '@/server/trpc';
import { nulRefused, parseJsonBody, readBody, urlContainsNul } from './body';
import { requestFingerprint } from './idempotency';
import { errorHeaders, problem, problemFromError, PROBLEM_CONTENT_TYPE, type Problem } from './problem';
import { callRoute, compileRestRoutes, queryInput } from './rest-routes';

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

/** The procedure's answer: its JSON output, or the bytes it asked for (audio), with its status and headers. */
function sendOutput(res: ServerResponse, http: HttpOut, data: unknown): void {
  res.statusCode = http.status ?? 200;
  res.setHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(http.headers)) res.setHeader(name, value);
  if (http.raw) {
    res.setHeader('Content-Type', http.raw.contentType);
    res.setHeader('Content-Length', http.raw.body.length);
    res.end(http.raw.body);
    return;
  }
  if (data === undefined) {
    res.end();
    return;
  }
  const payload = JSON.stringify(data);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/** 5xx are logged (with the cause a TRPCError wraps); 4xx are the client's and only in the request line. */
function logFailure(error: unknown, procedure: string | undefined, what: string): void {
  const { status } = problemFromError(error);
  const err = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (status === 503) logger.warn({ err, procedure }, `${what}: database unavailable`);
  else if (status >= 500) logger.error({ err, procedure }, what);
}

/**
 * A path without dots, percent signs or other characters a URL parser rewrites, and a query of
 * plain characters: its parse is the text itself (the common case, taken without a URL object).
 */
const PLAIN_TARGET = /^(\/[\w\-/]*)(?:\?([\w\-.~=&%+,:]*))?$/;

/** The request target's path and query (without its `?`), as the WHATWG URL parser reads them. */
export function parseTarget(url: string): { pathname: string; query: string } {
  const plain = PLAIN_TARGET.exec(url);
  if (plain) return { pathname: plain[1]!, query: plain[2] ?? '' };
  // Appended, not resolved: `//x` stays a path (as trpc-to-openapi's handler reads it), never a host.
  const target = new URL(`http://127.0.0.1${url}`);
  return { pathname: target.pathname, query: target.search.slice(1) };
}

export function createRestHandler() {
  // The route table comes from the procedures' own `openapi` meta (server/http/rest-routes.ts).
  const findRoute = compileRestRoutes(appRouter);

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
      let body: unknown;
      if (BODY_METHODS.has(req.method!)) {
        const raw = await readBody(req);
        body = parseJsonBody(raw, req.headers['content-type']);
        const idempotencyKey = req.headers['idempotency-key'];
        // Only read here; the procedure's last middleware takes it (server/http/idempotency.ts).
        if (req.method === 'POST' && typeof idempotencyKey === 'string') {
          state.idempotency = { key: idempotencyKey, fingerprint: requestFingerprint(req.method, url, raw) };
        }
      }
      const target = parseTarget(url);
      const found = findRoute(req.method!, normalizePath(target.pathname));
      const ctx = createContext({ req });
      if (!found) {
        // No operation at this path: 404 — after the credential gate every request passes, so the
        // answer carries RateLimit-* and an unknown path is no way around the lockout.
        try {
          await admitWithoutOperation(ctx);
          sendProblem(res, problem('not-found', 'No operation at this path. The reference is at /docs.'), ctx.http.headers);
        } catch (error) {
          sendProblem(res, problemFromError(error), { ...ctx.http.headers, ...errorHeaders(error) });
        }
        return;
      }
      const { route, pathInput } = found;
      const input = route.takesNoInput
        ? undefined
        : { ...(body !== undefined ? body : queryInput(new URLSearchParams(target.query), route.arrayFields)), ...pathInput };
      const result = await callRoute(route, ctx, input);
      if (result.ok) {
        sendOutput(res, ctx.http, result.data);
        return;
      }
      logFailure(result.error, route.path, 'request failed');
      sendProblem(res, problemFromError(result.error), { ...ctx.http.headers, ...errorHeaders(result.error) });
    } catch (error) {
      logFailure(error, undefined, 'request failed before routing');
      // A 413's body is being drained (readBody): the connection stays usable.
      sendProblem(res, problemFromError(error), errorHeaders(error));
    }
  };
}
