import { DrizzleQueryError } from 'drizzle-orm';
import pino from 'pino';

/**
 * One JSON line per record (pino). Tokens and secrets never reach it: request
 * logs carry the key id, the redact list below catches anything that slips
 * into a structured field by name, and a failed query's values are withheld.
 */
export const LOG_OPTIONS: pino.LoggerOptions = {
  // LOG_LEVEL is set by the entry points once the configuration is parsed (server/config.ts): a bad
  // value stops the start with the configuration's message, not pino's.
  level: 'info',
  base: { service: 'ad-network-service' },
  redact: {
    paths: ['token', 'secret', 'authorization', '*.token', '*.secret', '*.authorization', 'headers.authorization'],
    censor: '[redacted]',
  },
  timestamp: pino.stdTimeFunctions.isoTime,
  serializers: { err: (error: unknown) => pino.stdSerializers.err(withoutQueryParameters(error) as Error) },
};

// Buffered writes: a log line must not cost a synchronous write per request.
export const logger = pino(LOG_OPTIONS, pino.destination({ dest: 1, sync: false, minLength: 4096 }));

export type Logger = typeof logger;

/**
 * `error` with every failed query in its cause chain stripped of its parameters. Drizzle writes a
 * failed query's values into its message (`params: …`) and keeps them on the error: the values of
 * a statement storing a secret — the app secret at start, a webhook secret — would be printed with
 * it. The query stays (it names the table and the statement); its values are counted, not shown.
 * Changes the errors in place (they are on their way to a log) and returns `error`.
 */
export function withoutQueryParameters<T>(error: T): T {
  const chain: Error[] = [];
  for (let e: unknown = error; e instanceof Error && !chain.includes(e); e = e.cause) chain.push(e);
  // A wrapper (a TRPCError) copies its cause's message into its own: each is rewritten wherever it is.
  const rewrites: Array<[string, string]> = [];
  for (const e of chain) {
    if (!(e instanceof DrizzleQueryError)) continue;
    rewrites.push([e.message, `Failed query: ${e.query}\nparams: ${e.params.length} withheld`]);
    e.params = [];
  }
  for (const e of rewrites.length > 0 ? chain : []) {
    for (const [before, after] of rewrites) {
      e.message = e.message.replaceAll(before, after);
      if (e.stack) e.stack = e.stack.replaceAll(before, after);
    }
  }
  return error;
}

/**
 * The per-request line (server/transport/server.ts): fixed fields that are never secret (ids, method,
 * route template, status, duration), so it skips the redaction pass — 3 of its 8 µs per request
 * (docs/PERFORMANCE.md, "/v1 at the speed of a bare server"). Everything else logs through
 * `logger`, redacted.
 */
export const requestLogger = logger.child({}, { redact: [] });

// Buffered lines reach the log within a second even when traffic is light.
setInterval(() => logger.flush(), 1000).unref();

/**
 * Resolves once every buffered line is written: a stop waits for it before the process exits.
 * (pino also writes what is left synchronously on `exit`, which covers a crash; it cannot finish
 * a write already handed to the thread pool, which this waits for.)
 */
export function flushLogs(): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
