import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../db/client';
import { postgresBucketStore, TokenBucketLimiter } from '../server/http/rate-limit';
import { closeTestDatabase, openTestDatabase } from './support/fixtures';

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

describe('token buckets shared through Postgres', () => {
  it('two processes (two limiters) draw on one bucket after a sync', async () => {
    const policy = { rate: 0.001, burst: 10 };
    const a = new TokenBucketLimiter(policy, postgresBucketStore(database()), 10_000);
    const b = new TokenBucketLimiter(policy, postgresBucketStore(database()), 10_000);
    const key = `shared-${Date.now()}`;
    for (let i = 0; i < 6; i++) expect(a.consume(key).allowed).toBe(true);
    await a.flush();
    // b has not spent anything locally, but the shared balance says 4 are left.
    expect(b.consume(key).allowed).toBe(true);
    await b.flush();
    let allowed = 0;
    for (let i = 0; i < 10; i++) if (b.consume(key).allowed) allowed++;
    expect(allowed).toBe(3);
    a.stop();
    b.stop();
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

describe('token buckets shared through Redis (REDIS_URL)', () => {
  it('two limiters draw on one bucket after a sync', async () => {
    const { Redis } = await import('ioredis');
    const { redisBucketStore } = await import('../server/http/rate-limit');
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    try {
      const policy = { rate: 0.001, burst: 10 };
      const a = new TokenBucketLimiter(policy, redisBucketStore(redis), 10_000);
      const b = new TokenBucketLimiter(policy, redisBucketStore(redis), 10_000);
      const key = `shared-redis-${Date.now()}`;
      for (let i = 0; i < 6; i++) expect(a.consume(key).allowed).toBe(true);
      await a.flush();
      expect(b.consume(key).allowed).toBe(true);
      await b.flush();
      let allowed = 0;
      for (let i = 0; i < 10; i++) if (b.consume(key).allowed) allowed++;
      expect(allowed).toBe(3);
      a.stop();
      b.stop();
    } finally {
      redis.disconnect();
    }
  });
});
