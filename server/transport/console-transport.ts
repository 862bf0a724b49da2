import type { ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { config } from '@/server/config';
import { badRequest } from '@/server/errors';
import { logger } from '@/server/logger';
import { appRouter } from '@/server/routers';
import { createContext, requestState, type AppRequest, type Context } from '@/server/trpc';
import { MAX_BODY_BYTES, refuseUnsafeHeaders, refuseUnsafeTarget } from '@/server/http/body';
import { errorHeaders, problemFromError, type Problem } from '@/server/http/problem';
import { holdAnswer, jittered } from '@/server/http/refusal-pacing';

export const CONSOLE_PREFIX = '/api/trpc';

/**
 * How many procedure calls a request holds: a batch (`?batch=1`) names them comma-separated in the
 * path, counted as tRPC counts them, after percent-decoding (`%2C` is a comma too). A path tRPC
 * cannot decode is its own 400.
 */
function callsIn(path: string, query: URLSearchParams): number {
  if (query.get('batch') !== '1') return 1;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 1;
  }
  let calls = 1;
  for (let i = decoded.indexOf(','); i !== -1; i = decoded.indexOf(',', i + 1)) calls++;
  return calls;
}

/**
 * What the transport refuses before tRPC reads the request, each a 400: a batch of more calls than
 * CONSOLE_MAX_BATCH_SIZE (each call is a procedure run: an unbounded batch is unbounded work for one
 * request; `oversized`), and a target or header that is not text (server/http/body.ts; the body is checked by
 * the procedures' `base` middleware).
 */
function refusalOf(req: AppRequest, path: string, query: URLSearchParams): { error: unknown; oversized?: true } | undefined {
  try {
    refuseUnsafeTarget(req.url!);
    refuseUnsafeHeaders(req.rawHeaders);
  } catch (error) {
    return { error };
  }
  const calls = callsIn(path, query);
  const max = config().CONSOLE_MAX_BATCH_SIZE;
  if (calls > max) {
    const detail = `This batch holds ${calls} calls; ${CONSOLE_PREFIX} takes at most ${max} in one request (CONSOLE_MAX_BATCH_SIZE). Send them in smaller batches.`;
    return { error: badRequest(detail), oversized: true };
  }
  return undefined;
}

/**
 * A refusal in tRPC's error response format (the one its client reads: `error.data` as our
 * `errorFormatter` shapes it), answered without running a procedure. tRPC's own `maxBatchSize`, set
 * too as the backstop, answers an oversized batch with a bare "Batch call exceeds maximum size",
 * which the envelope turns into "Bad request."; this one says what the limit is.
 */
function sendRefusal(res: ServerResponse, p: Problem): void {
  const body = JSON.stringify({
    error: { message: p.detail, code: TRPC_ERROR_CODES_BY_KEY.BAD_REQUEST, data: { code: 'BAD_REQUEST', httpStatus: p.status, problem: p } },
  });
  res.writeHead(p.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
}

/** The console's tRPC transport: the same procedures as /v1, same context and errors. */
export function createConsoleHandler() {
  return async function serveConsole(req: AppRequest, res: ServerResponse): Promise<void> {
    const state = requestState(req);
    res.setHeader('Request-Id', state.requestId);
    const url = new URL(req.url!, 'http://localhost');
    const path = url.pathname.slice(CONSOLE_PREFIX.length + 1);
    const refusal = refusalOf(req, path, url.searchParams);
    if (refusal) {
      // The console never sends an oversized batch: its answer is paced like a budget's (refusal-pacing.ts).
      if (refusal.oversized) await holdAnswer(jittered(config().REFUSAL_HOLD_MS));
      sendRefusal(res, problemFromError(refusal.error));
      return;
    }
    await nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path,
      maxBodySize: MAX_BODY_BYTES,
      maxBatchSize: config().CONSOLE_MAX_BATCH_SIZE,
      createContext: ({ req: r }) => createContext({ req: r as AppRequest }),
      responseMeta({ ctx, paths, errors }) {
        const headers = { ...(ctx as Context | undefined)?.http.headers };
        for (const error of errors) Object.assign(headers, errorHeaders(error));
        // A single call answers with its envelope's status, as /v1 does: tRPC's own mapping turns
        // an error it has no code for (the database unreachable: 503) into 500.
        if (errors.length === 1 && (paths?.length ?? 1) === 1) return { headers, status: problemFromError(errors[0]!).status };
        return { headers };
      },
      onError({ error, path: procedure }) {
        const p = problemFromError(error);
        if (p.status >= 500) {
          logger.error({ err: error.cause ?? error, procedure }, 'console request failed');
          // tRPC sends error.message to the client, and for an unexpected error that is the
          // cause's message (a failed query: its SQL and parameters). Only the envelope's words leave.
          error.message = p.detail;
        }
      },
    });
  };
}
