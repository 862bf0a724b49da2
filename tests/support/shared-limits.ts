/**
 * Every request budget of the service — per key, per owner and per network, rate and burst — at
 * `value`: one large enough that the limiters still run on every request but never refuse one, for
 * a load of one key (the reliability tests, the benchmarks).
 */
export function everyRequestBudget(value: string) {
  return {
    RATE_LIMIT_PER_SECOND: value,
    RATE_LIMIT_BURST: value,
    RATE_LIMIT_OWNER_PER_SECOND: value,
    RATE_LIMIT_OWNER_BURST: value,
    RATE_LIMIT_NETWORK_PER_SECOND: value,
    RATE_LIMIT_NETWORK_BURST: value,
  };
}

/**
 * The limits of the run's shared service (global-setup.ts) and of the second web process beside it
 * (web-pair.ts), which must agree: buckets are shared between processes, each reconciling them with
 * its own policy. Generous: the whole suite calls with one super_user key (one owner), the races fire
 * a hundred requests with one key and count on refused keys answering 401, and every file mints keys
 * for that one person. The tests of the limits themselves start servers of their own with small ones
 * (tests/http/rate-limit.test.ts, request-budgets.test.ts, quotas.test.ts, lockout.test.ts).
 */
export const SHARED_SERVICE_LIMITS = {
  ...everyRequestBudget('10000'),
  AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
  QUOTA_API_KEYS_PER_OWNER: '100000',
  // The credentials model signs people in from one address, hundreds of times a run.
  SIGN_IN_REQUESTS_PER_HOUR: '100000',
} as const;
