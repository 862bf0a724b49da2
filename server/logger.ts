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
  serializers: { err: serializeError },
};

// Buffered writes: a log line must not cost a synchronous write per request.
export const logger = pino(LOG_OPTIONS, pino.destination({ dest: 1, sync: false, minLength: 4096 }));

export type Logger = typeof logger;

/**
 * What hides the values of every failed query in `error`'s cause chain: each DrizzleQueryError's
 * message (Drizzle writes the values into it as `params: …`) and the same without them. A wrapper
 * (a TRPCError) copies its cause's message into its own, so each is replaced wherever it stands.
 */
function queryValueRewrites(error: unknown): Array<[string, string]> {
  const rewrites: Array<[string, string]> = [];
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof DrizzleQueryError) rewrites.push([e.message, `Failed query: ${e.query}\nparams: ${e.params.length} withheld`]);
  }
  return rewrites;
}

/** A copy of a serialized error with the rewrites applied to every string, and every `params` array replaced by its count. */
function scrub(value: unknown, rewrites: Array<[string, string]>, depth = 0): unknown {
  if (typeof value === 'string') return rewrites.reduce((text, [before, after]) => text.replaceAll(before, after), value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, rewrites, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'params' && Array.isArray(item) ? `${item.length} withheld` : scrub(item, rewrites, depth + 1),
    ]),
  );
}

/**
 * `error` as a log line carries it (pino's serializer), without the values of any failed query in
 * its cause chain: those of a statement storing a secret — the app secret at start, a webhook
 * secret — would be printed with it. The statement stays (it names the table); its values are
 * counted, not shown. The error itself is left as it is (some are read-only).
 */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error);
  const rewrites = queryValueRewrites(error);
  return rewrites.length === 0 ? serialized : scrub(serialized, rewrites);
}

/** `error`'s message without the values of any failed query in its cause chain (what scripts/start.ts prints). */
export function messageWithoutQueryValues(error: Error): string {
  return scrub(error.message, queryValueRewrites(error)) as string;
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
