import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { logger, requestLogger } from '@/server/logger';
import { requestState, type AppRequest } from '@/server/trpc';
import { CONSOLE_PREFIX, createConsoleHandler } from './console-transport';
import { HEALTH_PATH, serveHealth } from './health';
import { problem, PROBLEM_CONTENT_TYPE } from '@/server/http/problem';
import { createRestHandler, REST_PREFIX } from './rest';
import { isTrackingPath, serveTrackingHit } from './tracking';

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

const REQUEST_ID = /^[\w.:-]{1,128}$/;

function startsWithSegment(url: string, prefix: string): boolean {
  return url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
}

/**
 * One HTTP server for the whole service. /v1 goes to the procedures through the route table
 * compiled from their `openapi` meta (rest.ts) and /api/trpc to tRPC's node handler
 * (console-transport.ts) — both off Next's route-handler layer, which alone would cap the API near
 * 1,000 req/s — and everything else (the console and /docs) to Next. Tracking URLs (/t/…) come
 * before all of them: the hosts' ad servers call them, and they have limits of their own.
 */
export function createAppServer(pages?: PageHandler): Server {
  const serveRest = createRestHandler();
  const serveConsole = createConsoleHandler();

  return createServer((req: AppRequest, res) => {
    // Tracking URLs first, and on their own: no request state, no log line, no key (tracking.ts).
    if (isTrackingPath(req.url ?? '/')) {
      serveTrackingHit(req, res);
      return;
    }
    const started = process.hrtime.bigint();
    const incomingId = req.headers['x-request-id'];
    const state = requestState(req);
    if (typeof incomingId === 'string' && REQUEST_ID.test(incomingId)) state.requestId = incomingId;
    const url = req.url ?? '/';
    const rest = startsWithSegment(url, REST_PREFIX);
    const consoleApi = !rest && startsWithSegment(url, CONSOLE_PREFIX);

    if (rest || consoleApi) {
      // Answers carry tokens and tenant data: never cached, never sniffed (/v1 sets these with the
      // rest of its headers, rest.ts; a handler may say otherwise: audio is cached).
      if (consoleApi) {
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
      }
      res.on('finish', () => {
        requestLogger.info(
          {
            requestId: state.requestId,
            method: req.method,
            route: state.log.route ?? url.split('?')[0],
            status: res.statusCode,
            durationMs: Number(process.hrtime.bigint() - started) / 1e6,
            keyId: state.log.keyId,
          },
          'request',
        );
      });
    }

    if (req.method === 'GET' && url.split('?')[0] === HEALTH_PATH) {
      void serveHealth(res);
      return;
    }
    const handler = rest ? serveRest : consoleApi ? serveConsole : pages;
    Promise.resolve(handler ? handler(req, res) : notFound(res)).catch((error: unknown) => {
      logger.error({ err: error, requestId: state.requestId }, 'unhandled request error');
      if (!res.headersSent) {
        const body = JSON.stringify(problem('internal', 'An unexpected error occurred. It is safe to retry the request.'));
        res
          .writeHead(500, {
            'Cache-Control': 'no-store',
            'X-Content-Type-Options': 'nosniff',
            // /v1 writes its Request-Id with its answer (rest.ts) and pages write none: say it here.
            'Request-Id': state.requestId,
            'Content-Type': PROBLEM_CONTENT_TYPE,
            'Content-Length': Buffer.byteLength(body),
          })
          .end(body);
      } else {
        res.destroy();
      }
    });
  });
}

function notFound(res: ServerResponse): void {
  const body = JSON.stringify(problem('not-found', 'No such route.'));
  res.writeHead(404, { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body) }).end(body);
}
