import { TRPCClientError } from '@trpc/client';

/** What the console shows of an error: the API's problem envelope (RFC 9457), or a stand-in. */
export interface ConsoleProblem {
  status: number;
  title: string;
  detail: string;
  /** Field errors of a 400 (path like "name" or "scopes.0.role"). */
  errors?: { path: string; message: string }[];
}

interface ProblemShape {
  type?: string;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
  errors?: unknown;
}

/**
 * An error envelope the API answered inside a successful answer — one item of a bulk answer
 * (`{podcast_id, status: 409, error: …}`) — thrown so that it is shown as any other refusal.
 */
export class ProblemError extends Error {
  constructor(readonly problem: ConsoleProblem) {
    super(problem.detail);
    this.name = 'ProblemError';
  }
}

/**
 * The problem of anything a query or mutation threw. tRPC errors carry the
 * envelope at `error.data.problem`; a network failure has no status (0).
 */
export function problemOf(error: unknown): ConsoleProblem {
  if (error instanceof ProblemError) return error.problem;
  if (error instanceof TRPCClientError) {
    const data = error.data as { problem?: ProblemShape; httpStatus?: number } | undefined;
    const problem = data?.problem;
    if (problem && typeof problem.status === 'number' && typeof problem.detail === 'string') {
      return {
        status: problem.status,
        title: typeof problem.title === 'string' ? problem.title : 'Error',
        detail: problem.detail,
        ...(Array.isArray(problem.errors) ? { errors: problem.errors as ConsoleProblem['errors'] } : {}),
      };
    }
    if (typeof data?.httpStatus === 'number') {
      return { status: data.httpStatus, title: 'Error', detail: error.message || 'The request failed.' };
    }
    // No envelope: the request never got an answer from the API (offline, server down, proxy).
    return { status: 0, title: 'Network error', detail: 'The console could not reach the API. Check your connection and retry.' };
  }
  if (error instanceof Error) return { status: 0, title: 'Error', detail: error.message };
  return { status: 0, title: 'Error', detail: 'Something went wrong.' };
}

/** HTTP status of an error, 0 when there was no answer. */
export function statusOf(error: unknown): number {
  return problemOf(error).status;
}

/**
 * One sentence for a person, for the statuses where the raw detail benefits from
 * context. Pages may pass `action` ("rename the network") to make it specific.
 */
export function problemSentence(error: unknown, action?: string): string {
  const problem = problemOf(error);
  const tried = action ? `Could not ${action}: ` : '';
  switch (problem.status) {
    case 409:
      // Optimistic-lock conflicts (version / If-Match) say "version" or "changed" in their detail.
      if (/version|changed since|modified/i.test(problem.detail)) {
        return `${tried}someone else changed this while you were editing. Reload to see the latest version, then make your change again.`;
      }
      return `${tried}${problem.detail}`;
    case 412:
      return `${tried}this was changed by someone else since you loaded it. Reload and try again.`;
    case 403:
      return `${tried}you do not have permission. ${problem.detail}`;
    case 404:
      return `${tried}it no longer exists. ${problem.detail}`;
    case 429:
      return `${tried}too many requests right now. Wait a moment and retry.`;
    case 0:
      return `${tried}${problem.detail}`;
    default:
      return `${tried}${problem.detail}`;
  }
}
