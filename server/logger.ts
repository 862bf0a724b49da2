import pino from 'pino';

/**
 * One JSON line per record (pino). Tokens and secrets never reach it: request
 * logs carry the key id, and the redact list below catches anything that slips
 * into a structured field by name.
 */
export const logger = pino(
  {
    // LOG_LEVEL is set by the entry points once the configuration is parsed (server/config.ts): a bad
    // value stops the start with the configuration's message, not pino's.
    level: 'info',
    base: { service: 'ad-network-service' },
    redact: {
      paths: ['token', 'secret', 'authorization', '*.token', '*.secret', '*.authorization', 'headers.authorization'],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  },
  // Buffered writes: a log line must not cost a synchronous write per request.
  pino.destination({ dest: 1, sync: false, minLength: 4096 }),
);

export type Logger = typeof logger;

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
