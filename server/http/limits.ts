import { Redis } from 'ioredis';
import type { Database } from '@/db/client';
import type { Config } from '@/server/config';
import { postgresBucketStore, redisBucketStore, TokenBucketLimiter, type BucketStore } from './rate-limit';

interface Limits {
  perKey: TokenBucketLimiter;
  authFailures: TokenBucketLimiter;
  close(): Promise<void>;
}

let limits: Limits | undefined;

/**
 * Set up the two limiters: requests per API key, and failed authentications
 * per client address. Buckets are shared through Redis when REDIS_URL is set,
 * otherwise through Postgres.
 */
export function configureLimits(db: Database, c: Config): Limits {
  const redis = c.REDIS_URL ? new Redis(c.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
  const store: BucketStore = redis ? redisBucketStore(redis) : postgresBucketStore(db);
  const perKey = new TokenBucketLimiter({ rate: c.RATE_LIMIT_PER_SECOND, burst: c.RATE_LIMIT_BURST }, store);
  const authFailures = new TokenBucketLimiter(
    { rate: c.AUTH_FAILURE_LIMIT_PER_MINUTE / 60, burst: c.AUTH_FAILURE_LIMIT_PER_MINUTE },
    store,
  );
  limits = {
    perKey,
    authFailures,
    async close() {
      perKey.stop();
      authFailures.stop();
      await Promise.all([perKey.flush(), authFailures.flush()]);
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
