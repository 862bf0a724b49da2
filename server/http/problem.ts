import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import { isDatabaseUnavailable, isTransientConflict } from '@/db/client';
import { config } from '@/server/config';
import { AppError, ERROR_KINDS, type ErrorKind, type FieldError } from '@/server/errors';

/** The spec's error envelope (RFC 9457 problem details). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problem(kind: ErrorKind, detail: string, errors?: FieldError[]): Problem {
  const { status, title } = ERROR_KINDS[kind];
  return { type: `${config().errorBaseUrl}/errors/${kind}`, title, status, detail, ...(errors?.length ? { errors } : {}) };
}

const KIND_BY_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorKind>> = {
  PARSE_ERROR: 'bad-request',
  BAD_REQUEST: 'bad-request',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not-found',
  METHOD_NOT_SUPPORTED: 'method-not-allowed',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload-too-large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  UNPROCESSABLE_CONTENT: 'idempotency-key-reused',
  TOO_MANY_REQUESTS: 'rate-limited',
  BAD_GATEWAY: 'upstream-unavailable',
  SERVICE_UNAVAILABLE: 'service-unavailable',
};

const TRPC_CODE_BY_KIND = {
  ...Object.fromEntries(Object.entries(KIND_BY_TRPC_CODE).map(([code, kind]) => [kind, code])),
  // 409s of their own kinds: tRPC knows one code per status.
  'quota-exceeded': 'CONFLICT',
  'brand-safety': 'CONFLICT',
  'voice-consent-required': 'CONFLICT',
} as Record<ErrorKind, TRPC_ERROR_CODE_KEY>;

/** A TRPCError whose code gives the right HTTP status on both transports. */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_KIND[error.kind] ?? 'INTERNAL_SERVER_ERROR', message: error.detail, cause: error });
}

export function zodFieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return { path: path || '(body)', message: `Unknown field(s): ${issue.keys.join(', ')}.` };
    }
    return { path: path || '(body)', message: issue.message };
  });
}

/** Seconds a client is asked to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Map anything thrown while serving a request to the envelope. Never leaks internals.
 * The database being unreachable or restarting is a 503 with Retry-After, not a 500:
 * nothing is wrong with the request, and a retry a moment later is expected to work.
 */
export function problemFromError(error: unknown): Problem {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof AppError) return problem(cause.kind, cause.detail, cause.extra.errors);
  if (isDatabaseUnavailable(error)) {
    return problem(
      'service-unavailable',
      `The service cannot reach its database right now. Retry in ${DATABASE_RETRY_AFTER_SECONDS} s: it is safe to retry the request, with the same Idempotency-Key for a POST.`,
    );
  }
  if (isTransientConflict(error)) {
    return problem('conflict', 'This request clashed with a concurrent change and was rolled back; nothing was changed. Retry it.');
  }
  if (cause instanceof ZodError) {
    const errors = zodFieldErrors(cause);
    const first = errors[0];
    return problem('bad-request', first ? `Invalid request: ${first.path}: ${first.message}` : 'Invalid request.', errors);
  }
  if (error instanceof TRPCError) {
    switch (error.code) {
      case 'PARSE_ERROR':
        return problem('bad-request', 'The request body is not valid JSON.');
      case 'PAYLOAD_TOO_LARGE':
        return problem('payload-too-large', 'The request body is larger than 1 MiB.');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return problem(
          'unsupported-media-type',
          'Send the request body as JSON with Content-Type: application/json (with curl: -H "Content-Type: application/json").',
        );
      case 'NOT_FOUND':
        return problem('not-found', 'No such route.');
      case 'INTERNAL_SERVER_ERROR':
        return problem('internal', 'An unexpected error occurred. It is safe to retry the request.');
      default: {
        const kind = KIND_BY_TRPC_CODE[error.code];
        // Messages of tRPC's own errors are written for developers of this service, not for clients.
        if (kind) return problem(kind, ERROR_KINDS[kind].title + '.');
      }
    }
  }
  return problem('internal', 'An unexpected error occurred. It is safe to retry the request.');
}

/** Extra response headers an error asks for (Retry-After on 429, for example). */
export function errorHeaders(error: unknown): Record<string, string> {
  // RFC 6750: a 401 names the scheme to authenticate with.
  const challenge: Record<string, string> = problemFromError(error).status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  const cause = error instanceof TRPCError ? error.cause : error;
  if (cause instanceof AppError) return { ...challenge, ...cause.extra.headers };
  return isDatabaseUnavailable(error) ? { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) } : challenge;
}
