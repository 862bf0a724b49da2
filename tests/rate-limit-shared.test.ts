import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { database } from '@/db/client';
import { postgresBucketStore, redisBucketStore, TokenBucketLimiter, type BucketStore } from '@/server/http/rate-limit';
import { useTestDatabase } from './support/fixtures';

useTestDatabase();

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

/**
 * Spend a process reports on an existing bucket is taken off that bucket's balance, refilled from
 * its last update — the age of the spend is no extra credit (it was once: two processes then got
 * about 2.5 times the limit, found by tests/cluster/).
 */
async function expectSpendOnExistingBucketNotCredited(store: BucketStore) {
  const policy = { rate: 10, burst: 10 };
  const key = `existing-${Date.now()}-${Math.random()}`;
  const first = await store.sync(policy, new Map([[key, { tokens: 10, ageSeconds: 0 }]]));
  expect(first.get(key)).toBeLessThan(0.5);
  // One more token, first spent 5 s ago (a process reporting late): the balance drops by about one.
  const second = await store.sync(policy, new Map([[key, { tokens: 1, ageSeconds: 5 }]]));
  expect(second.get(key)).toBeLessThan(first.get(key)! - 0.5);
}

describe('token buckets shared between processes', () => {
  it('through Postgres (the default)', async () => {
    await expectOneSharedBucket(postgresBucketStore(database()));
    await expectSpendOnExistingBucketNotCredited(postgresBucketStore(database()));
  });

  // Whenever a Redis answers (always in CI); without one the global setup says, in one line, that
  // this store was not exercised.
  it.runIf(inject('redisUrl'))('through Redis (REDIS_URL)', async () => {
    const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
    try {
      await expectOneSharedBucket(redisBucketStore(redis));
      await expectSpendOnExistingBucketNotCredited(redisBucketStore(redis));
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
