import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../db/client';
import { postgresBucketStore, redisBucketStore, TokenBucketLimiter, type BucketStore } from '../server/http/rate-limit';
import { closeTestDatabase, openTestDatabase } from './support/fixtures';

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

/** Two limiters stand for two processes: after a sync, both draw on one balance. */
async function expectOneSharedBucket(store: BucketStore) {
  const policy = { rate: 0.001, burst: 10 };
  const a = new TokenBucketLimiter(policy, store, 10_000);
  const b = new TokenBucketLimiter(policy, store, 10_000);
  const key = `shared-${Date.now()}-${Math.random()}`;
  try {
    for (let i = 0; i < 6; i++) expect(a.consume(key).allowed).toBe(true);
    await a.flush();
    // b has spent nothing locally, but the shared balance says 4 are left.
    expect(b.consume(key).allowed).toBe(true);
    await b.flush();
    let allowed = 0;
    for (let i = 0; i < 10; i++) if (b.consume(key).allowed) allowed++;
    expect(allowed).toBe(3);
  } finally {
    a.stop();
    b.stop();
  }
}

describe('token buckets shared between processes', () => {
  it('through Postgres (the default)', async () => {
    await expectOneSharedBucket(postgresBucketStore(database()));
  });

  it('through Redis (REDIS_URL)', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    try {
      await expectOneSharedBucket(redisBucketStore(redis));
    } finally {
      redis.disconnect();
    }
  });

  it('says how long to wait', () => {
    const limiter = new TokenBucketLimiter({ rate: 0.5, burst: 1 }, { sync: async () => new Map() }, 10_000);
    expect(limiter.consume('k').allowed).toBe(true);
    const refused = limiter.consume('k');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(2);
    limiter.stop();
  });
});
