import { Redis } from 'ioredis';
import type { Database } from '@/db/client';
import type { Config } from '@/server/config';
import { postgresBucketStore, redisBucketStore, TokenBucketLimiter, type BucketStore } from './rate-limit';

export interface Limits {
  /** Each credential's own bucket, keyed by its token's hash (spent before the key is looked up). */
  perKey: TokenBucketLimiter;
  /** What all keys of one person or service account share. */
  perOwner: TokenBucketLimiter;
  /** What all requests acting on one network share. */
  perNetwork: TokenBucketLimiter;
  authFailures: TokenBucketLimiter;
  /** Sign-in links asked for, per client address and per email address. */
  signInRequests: TokenBucketLimiter;
  close(): Promise<void>;
}

let limits: Limits | undefined;

/**
 * Set up the limiters: requests per API key, per owner and per network (server/http/request-budget.ts),
 * failed authentications per client address, and sign-in links asked for. Buckets are shared through Redis when REDIS_URL is
 * set, otherwise through Postgres.
 */
export function configureLimits(db: Database, c: Config): Limits {
  const redis = c.REDIS_URL ? new Redis(c.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
  const store: BucketStore = redis ? redisBucketStore(redis) : postgresBucketStore(db);
  const perKey = new TokenBucketLimiter({ rate: c.RATE_LIMIT_PER_SECOND, burst: c.RATE_LIMIT_BURST }, store);
  const perOwner = new TokenBucketLimiter({ rate: c.RATE_LIMIT_OWNER_PER_SECOND, burst: c.RATE_LIMIT_OWNER_BURST }, store);
  const perNetwork = new TokenBucketLimiter({ rate: c.RATE_LIMIT_NETWORK_PER_SECOND, burst: c.RATE_LIMIT_NETWORK_BURST }, store);
  const authFailures = new TokenBucketLimiter({ rate: c.AUTH_FAILURE_LIMIT_PER_MINUTE / 60, burst: c.AUTH_FAILURE_LIMIT_PER_MINUTE }, store);
  const signInRequests = new TokenBucketLimiter({ rate: c.SIGN_IN_REQUESTS_PER_HOUR / 3600, burst: c.SIGN_IN_REQUESTS_PER_HOUR }, store);
  const all = [perKey, perOwner, perNetwork, authFailures, signInRequests];
  limits = {
    perKey,
    perOwner,
    perNetwork,
    authFailures,
    signInRequests,
    async close() {
      for (const limiter of all) limiter.stop();
      await Promise.all(all.map((limiter) => limiter.flush()));
      await redis?.quit();
      limits = undefined;
    },
  };
  return limits;
}

/** The configured limiters, or undefined when none are (in-process tests). */
export function currentLimits(): Limits | undefined {
  return limits;
}
