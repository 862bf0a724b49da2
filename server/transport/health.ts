import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { logger } from '@/server/logger';
import { DATABASE_RETRY_AFTER_SECONDS, problem, PROBLEM_CONTENT_TYPE } from '@/server/http/problem';

export const HEALTH_PATH = '/healthz';

/** How long the database may take to answer before the process is reported unhealthy. */
const DATABASE_CHECK_MS = 2_000;

/**
 * GET /healthz, for load balancers and orchestrators (no credential; nothing about the data):
 * 200 when this process serves requests and its database answers, 503 otherwise. A process that
 * is stopping has closed its listener, so a check then fails to connect at all.
 */
export async function serveHealth(res: ServerResponse): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database().execute(sql`select 1`),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_CHECK_MS} ms`)), DATABASE_CHECK_MS))),
    ]);
    send(res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
  } catch (error) {
    logger.warn({ err: error }, 'health check: the database does not answer');
    const body = problem('service-unavailable', 'This process cannot reach its database.');
    send(res, 503, PROBLEM_CONTENT_TYPE, JSON.stringify(body), { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
  } finally {
    clearTimeout(timer);
  }
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' }).end(body);
}
