import type { ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { normalizePath } from 'trpc-to-openapi';
import { badRequest } from '@/server/errors';
import { logger } from '@/server/logger';
import { openApiDocument } from '@/server/openapi';
import { appRouter } from '@/server/routers';
import type { HttpOut } from '@/server/http/answer';
import { admitWithoutOperation, createContext, requestState, type AppRequest } from '@/server/trpc';
import { isOneClickUnsubscribe, parseJsonBody, readBody, refuseUnsafeHeaders, refuseUnsafeTarget } from '@/server/http/body';
import { requestFingerprint } from '@/server/http/idempotency';
import { paceRefusal } from '@/server/http/refusal-pacing';
import { errorHeaders, problem, problemFromError, PROBLEM_CONTENT_TYPE, type Problem } from '@/server/http/problem';
import { acceptsCsv, CSV_PAGE_SIZE, csvFilename, parseCsvBody, streamCsv } from './csv';
import { callRoute, compileRestRoutes, queryInput } from './rest-routes';

export const REST_PREFIX = '/v1';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

type Headers = Record<string, string | number>;

/**
 * Every /v1 answer's headers: never cached, never sniffed (a handler may say otherwise: audio is
 * cached), and the request id. server.ts leaves /v1's headers to this file, so that each answer
 * is written with one `writeHead` — no `setHeader` per header (node validates and stores each).
 */
const answerHeaders = (requestId: string): Headers => ({
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Request-Id': requestId,
  'Content-Type': 'application/json',
});

function send(res: ServerResponse, status: number, headers: Headers, body?: string | Buffer): void {
  if (body === undefined) {
    // No body: node decides Content-Length (none on a 204).
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.statusCode = status;
    res.end();
    return;
  }
  headers['Content-Length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  res.writeHead(status, headers).end(body);
}

function sendJson(res: ServerResponse, requestId: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, { ...answerHeaders(requestId), ...headers }, JSON.stringify(body));
}

function sendProblem(res: ServerResponse, requestId: string, p: Problem, headers: Record<string, string> = {}): void {
  sendJson(res, requestId, p.status, p, { ...headers, 'Content-Type': PROBLEM_CONTENT_TYPE });
}

/** The procedure's answer: its JSON output, or the bytes it asked for (audio), with its status and headers. */
function sendOutput(res: ServerResponse, requestId: string, http: HttpOut, data: unknown): void {
  const headers = { ...answerHeaders(requestId), ...http.headers };
  if (http.raw) {
    headers['Content-Type'] = http.raw.contentType;
    send(res, http.status ?? 200, headers, http.raw.body);
  } else {
    send(res, http.status ?? 200, headers, data === undefined ? undefined : JSON.stringify(data));
  }
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

/**
 * A body field or query parameter named like one of the path's parameters (`campaignId` in a PATCH
 * of /campaigns/{campaignId}) is not a field of the operation, so it is refused as any unknown
 * field is, rather than silently overwritten by the path's value.
 */
function refuseShadowedPathParameters(given: Record<string, unknown>, pathInput: Record<string, unknown>): void {
  const shadowed = Object.keys(pathInput).filter((name) => Object.hasOwn(given, name));
  if (shadowed.length === 0) return;
  const message = `Unknown field(s): ${shadowed.join(', ')}.`;
  throw badRequest(`Invalid request: (body): ${message}`, [{ path: '(body)', message }]);
}

export function createRestHandler() {
  // The route table comes from the procedures' own `openapi` meta (server/transport/rest-routes.ts).
  const findRoute = compileRestRoutes(appRouter);

  return async function serveRest(req: AppRequest, res: ServerResponse): Promise<void> {
    const state = requestState(req);
    const { requestId } = state;
    const url = req.url!.slice(REST_PREFIX.length) || '/';
    if (req.method === 'GET' && url.split('?')[0] === '/openapi.json') {
      sendJson(res, requestId, 200, openApiDocument(), { 'Cache-Control': 'no-cache' });
      return;
    }
    req.url = url;
    try {
      refuseUnsafeTarget(url);
      refuseUnsafeHeaders(req.rawHeaders);
      state.inputChecked = true; // the body is checked by parseJsonBody
      const target = parseTarget(url);
      const found = findRoute(req.method!, normalizePath(target.pathname));
      let body: unknown;
      if (BODY_METHODS.has(req.method!)) {
        const raw = await readBody(req);
        // A mail client's one-click unsubscribe posts a fixed form; its input is the URL's query.
        const csvBody = found?.route.csvBody;
        body =
          found?.route.takesOneClickForm && isOneClickUnsubscribe(raw, req.headers['content-type'])
            ? undefined
            : csvBody && /^text\/csv\b/i.test(req.headers['content-type'] ?? '')
              ? { [csvBody.field]: parseCsvBody(raw, csvBody.columns, csvBody.numeric) }
              : parseJsonBody(raw, req.headers['content-type']);
        const idempotencyKey = req.headers['idempotency-key'];
        // Only read here; the procedure's last middleware takes it (server/http/idempotency.ts).
        if (req.method === 'POST' && typeof idempotencyKey === 'string') {
          state.idempotency = { key: idempotencyKey, fingerprint: requestFingerprint(req.method, url, raw) };
        }
      }
      const ctx = createContext({ req });
      if (!found) {
        // No operation at this path: 404 — after the credential gate every request passes, so the
        // answer carries RateLimit-* and an unknown path is no way around the lockout.
        try {
          await admitWithoutOperation(ctx);
          sendProblem(res, requestId, problem('not-found', 'No operation at this path. The reference is at /docs.'), ctx.http.headers);
        } catch (error) {
          await paceRefusal(error, ctx.http, ctx.http.headers);
          sendProblem(res, requestId, problemFromError(error), { ...ctx.http.headers, ...errorHeaders(error) });
        }
        return;
      }
      const { route, pathInput } = found;
      let input: Record<string, unknown> | undefined;
      if (!route.takesNoInput) {
        const given = (body ?? queryInput(new URLSearchParams(target.query), route.arrayFields)) as Record<string, unknown>;
        refuseShadowedPathParameters(given, pathInput);
        input = { ...given, ...pathInput };
      }
      const csv = route.csvColumns && acceptsCsv(req.headers.accept);
      if (csv) input = { ...input, limit: CSV_PAGE_SIZE };
      const result = await callRoute(route, ctx, input);
      if (result.ok && csv) {
        await streamCsv({
          res,
          headers: { ...answerHeaders(requestId), ...ctx.http.headers },
          filename: csvFilename(route.openapiPath),
          columns: route.csvColumns!,
          firstPage: result.data as Parameters<typeof streamCsv>[0]['firstPage'],
          // Each page passes every gate again: the key is looked up anew and spends its budget.
          nextPage: (cursor) => {
            state.authentication = {};
            return callRoute(route, createContext({ req }), { ...input, cursor });
          },
        });
        return;
      }
      if (result.ok) {
        sendOutput(res, requestId, ctx.http, result.data);
        return;
      }
      logFailure(result.error, route.path, 'request failed');
      sendProblem(res, requestId, problemFromError(result.error), { ...ctx.http.headers, ...errorHeaders(result.error) });
    } catch (error) {
      logFailure(error, undefined, 'request failed before routing');
      // A 413's body is being drained (readBody): the connection stays usable.
      sendProblem(res, requestId, problemFromError(error), errorHeaders(error));
    }
  };
}
