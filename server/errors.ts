/**
 * Typed domain errors. Services throw these and know nothing of HTTP;
 * `server/http/problem.ts` is the one place that turns them into the envelope.
 */
export const ERROR_KINDS = {
  'bad-request': { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'not-acceptable': { status: 406, title: 'Not acceptable' },
  conflict: { status: 409, title: 'Conflict' },
  'quota-exceeded': { status: 409, title: 'Quota exceeded' },
  'brand-safety': { status: 409, title: 'Brand safety' },
  'voice-consent-required': { status: 409, title: 'Voice consent required' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'range-not-satisfiable': { status: 416, title: 'Range not satisfiable' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency key reused' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal server error' },
  'upstream-unavailable': { status: 502, title: 'Upstream unavailable' },
  'service-unavailable': { status: 503, title: 'Service unavailable' },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

export interface FieldError {
  path: string;
  message: string;
}

/**
 * How a refusal for a budget is paced (server/http/refusal-pacing.ts): its `line` (the bucket that
 * refused it), the time until that bucket could admit one request, and the time it takes to admit
 * each further one.
 */
export interface Pace {
  line: string;
  waitMs: number;
  everyMs: number;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; pace?: Pace } = {},
  ) {
    // A refusal (4xx) is an answer, not a fault: it carries no stack trace. Capturing one, and
    // formatting it when tRPC wraps the error, was about a sixth of the CPU of a 429 under a flood
    // (docs/PERFORMANCE.md, "Noisy neighbours"); a 5xx keeps its trace for the log.
    const stackTraceLimit = Error.stackTraceLimit;
    if (ERROR_KINDS[kind].status < 500) Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) => new AppError('bad-request', detail, { errors });
export const unauthorized = (detail: string) => new AppError('unauthorized', detail);
export const forbidden = (detail: string) => new AppError('forbidden', detail);
export const notFound = (what: string) => new AppError('not-found', `${what} not found.`);

/** `row`, or a 404 naming `what` when there is none: `presentX(found(await findX(…), 'X'))`. */
export function found<T>(row: T | null | undefined, what: string): T {
  if (row === null || row === undefined) throw notFound(what);
  return row;
}
export const conflict = (detail: string) => new AppError('conflict', detail);
