import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database } from '@/db/client';
import { rateLimitBuckets } from '@/db/schema';
import { column } from '@/db/statement';
import { logger } from '@/server/logger';

export interface BucketPolicy {
  /** Tokens added per second. */
  rate: number;
  /** Bucket size: the largest burst allowed. */
  burst: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds to wait before a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** The same wait in milliseconds, not rounded up (0 when allowed). */
  waitMs: number;
  /** Milliseconds the bucket takes to refill one token. */
  tokenMs: number;
}

/** Where buckets are shared between processes. `sync` spends tokens and returns each bucket's balance. */
export interface BucketStore {
  sync(policy: BucketPolicy, spent: Map<string, Spend>): Promise<Map<string, number>>;
}

/** Tokens spent locally since the last sync, and how long ago the first of them was spent. */
export interface Spend {
  tokens: number;
  ageSeconds: number;
}

interface LocalBucket {
  tokens: number;
  refilledAt: number;
  /** Spent since the last sync was sent. */
  unsynced: number;
  firstUnsyncedAt: number;
}

/**
 * Token buckets kept in memory and reconciled with a shared store in batches
 * (every `syncIntervalMs`), so a request never waits on, or writes to, the
 * database. Between syncs each process may overspend by what it serves in one
 * interval; the shared balance then pulls every process back in line.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, LocalBucket>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;

  constructor(
    readonly policy: BucketPolicy,
    private readonly store: BucketStore,
    private readonly syncIntervalMs = 250,
  ) {}

  private refill(bucket: LocalBucket, now: number): void {
    const elapsed = (now - bucket.refilledAt) / 1000;
    bucket.tokens = Math.min(this.policy.burst, bucket.tokens + elapsed * this.policy.rate);
    bucket.refilledAt = now;
  }

  private bucket(key: string, now: number): LocalBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.policy.burst, refilledAt: now, unsynced: 0, firstUnsyncedAt: now };
      this.buckets.set(key, bucket);
    } else {
      this.refill(bucket, now);
    }
    return bucket;
  }

  private decision(bucket: LocalBucket, allowed: boolean): Decision {
    const { rate, burst } = this.policy;
    return {
      allowed,
      limit: burst,
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      resetSeconds: Math.ceil(Math.max(0, burst - bucket.tokens) / rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / rate)),
      waitMs: allowed ? 0 : ((1 - bucket.tokens) / rate) * 1000,
      tokenMs: 1000 / rate,
    };
  }

  /** Take one token for `key` if there is one. */
  consume(key: string): Decision {
    const bucket = this.bucket(key, Date.now());
    const allowed = bucket.tokens >= 1;
    if (allowed) {
      if (bucket.unsynced === 0) bucket.firstUnsyncedAt = Date.now();
      bucket.tokens -= 1;
      bucket.unsynced += 1;
      this.schedule();
    }
    return this.decision(bucket, allowed);
  }

  /** The decision `key` would get now, without spending (for answers that passed no limiter). */
  peek(key: string): Decision {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.decision({ tokens: this.policy.burst, refilledAt: Date.now(), unsynced: 0, firstUnsyncedAt: 0 }, true);
    this.refill(bucket, Date.now());
    return this.decision(bucket, bucket.tokens >= 1);
  }

  /** Would `key` be refused now? (Does not spend.) */
  exhausted(key: string): boolean {
    const bucket = this.buckets.get(key);
    if (!bucket) return false;
    this.refill(bucket, Date.now());
    return bucket.tokens < 1;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.syncIntervalMs);
    this.timer.unref?.();
  }

  /** Send local spend to the shared store and adopt the shared balances. */
  async flush(): Promise<void> {
    if (this.syncing) return this.syncing;
    const spent = new Map<string, Spend>();
    const now = Date.now();
    for (const [key, bucket] of this.buckets) {
      if (bucket.unsynced > 0) {
        spent.set(key, { tokens: bucket.unsynced, ageSeconds: (now - bucket.firstUnsyncedAt) / 1000 });
        bucket.unsynced = 0;
      }
    }
    if (spent.size === 0) return;
    this.syncing = (async () => {
      try {
        const balances = await this.store.sync(this.policy, spent);
        const now = Date.now();
        for (const [key, shared] of balances) {
          const bucket = this.buckets.get(key);
          if (!bucket) continue;
          // Spend that happened while the sync was in flight is still ours to report.
          bucket.tokens = Math.min(this.policy.burst, shared) - bucket.unsynced;
          bucket.refilledAt = now;
        }
      } catch (error) {
        // The limiter degrades to per-process limits rather than failing requests.
        logger.warn({ err: error }, 'rate-limit sync failed');
      } finally {
        this.syncing = undefined;
      }
      this.evictIdle();
    })();
    return this.syncing;
  }

  private evictIdle(): void {
    if (this.buckets.size < 10_000) return;
    const now = Date.now();
    for (const [key, bucket] of this.buckets) {
      if (bucket.unsynced === 0 && now - bucket.refilledAt > 60_000) this.buckets.delete(key);
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Buckets in an UNLOGGED Postgres table: one upsert per sync for all keys (4 a second per process, off the request path). */
export function postgresBucketStore(db: Database): BucketStore {
  return {
    async sync({ rate, burst }, spent) {
      const batch = JSON.stringify([...spent].map(([key, s]) => ({ key, spent: s.tokens, age: s.ageSeconds })));
      // A new bucket is credited the refill since the first spend it reports;
      // an existing one refills from its last update.
      // (`excluded` holds only the new bucket's balance, clamped: the spend itself is read again
      // from the batch, so an existing bucket is charged all of it.)
      const b = rateLimitBuckets;
      const rows = await db.execute<{ key: string; tokens: number }>(sql`
        with spend as (select key, spent, age from json_to_recordset(${batch}::json) as t(key text, spent float8, age float8))
        insert into ${b} (${column(b.key)}, ${column(b.tokens)}, ${column(b.updatedAt)})
        select key, greatest(${-burst}::float8, least(${burst}::float8, ${burst}::float8 - spent + age * ${rate}::float8)), now()
        from spend
        on conflict (${column(b.key)}) do update set
          ${column(b.tokens)} = greatest(${-burst}::float8,
            least(${burst}::float8, ${b.tokens} + extract(epoch from now() - ${b.updatedAt}) * ${rate}::float8)
            - (select spent from spend where spend.key = excluded.${column(b.key)})),
          ${column(b.updatedAt)} = now()
        returning ${b.key} as key, ${b.tokens} as tokens`);
      return new Map(rows.map((r) => [r.key, Number(r.tokens)]));
    },
  };
}

const REDIS_SYNC = `
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local out = {}
for i, key in ipairs(KEYS) do
  local spent, age = tonumber(ARGV[i * 2 + 1]), tonumber(ARGV[i * 2 + 2])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(state[1])
  if tokens == nil then
    -- A new bucket is credited the refill since the first spend it reports.
    tokens = math.min(burst, burst - spent + age * rate)
  else
    tokens = math.min(burst, tokens + (t - tonumber(state[2])) * rate) - spent
  end
  if tokens < -burst then tokens = -burst end
  redis.call('HSET', key, 'tokens', tokens, 'at', t)
  redis.call('EXPIRE', key, math.ceil(burst / rate) * 2 + 60)
  out[i] = tostring(tokens)
end
return out`;

/** The same buckets in Redis (REDIS_URL), one script call per sync. */
export function redisBucketStore(redis: Redis): BucketStore {
  return {
    async sync({ rate, burst }, spent) {
      const keys = [...spent.keys()];
      const args = [rate, burst, ...keys.flatMap((k) => [spent.get(k)!.tokens, spent.get(k)!.ageSeconds])];
      const balances = (await redis.eval(REDIS_SYNC, keys.length, ...keys.map((k) => `rl:${k}`), ...args)) as string[];
      return new Map(keys.map((k, i) => [k, Number(balances[i])]));
    },
  };
}

/** Response headers describing a decision (IETF RateLimit header fields). */
export function rateLimitHeaders(d: Decision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
  };
  if (!d.allowed) headers['Retry-After'] = String(d.retryAfterSeconds);
  return headers;
}
