import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';

export type StatsBucket = 'hour' | 'day';

export interface DeliveryStatsBucket {
  start: Date;
  succeeded: number;
  failed: number;
  pending: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

const STEP_MS: Record<StatsBucket, number> = { hour: 3_600_000, day: 86_400_000 };

/** The start (UTC) of the hour or day that holds `at`. */
export function bucketStart(at: Date, bucket: StatsBucket): Date {
  const d = new Date(at);
  d.setUTCMinutes(0, 0, 0);
  if (bucket === 'day') d.setUTCHours(0);
  return d;
}

/**
 * Webhook delivery health of a network in UTC hour or day buckets from `since`
 * to now: deliveries by status (bucketed by when they were created) and the
 * p50/p95 latency of the attempts started in each bucket. Every bucket of the
 * range is present, empty ones with zeros and null latencies. Optionally one
 * subscription only.
 */
export async function deliveryStats({
  db,
  since,
  bucket,
  now = new Date(),
  ...scope
}: {
  db: Queryable;
  since: Date;
  bucket: StatsBucket;
  now?: Date;
  networkId: string;
  webhookId?: string | undefined;
}): Promise<DeliveryStatsBucket[]> {
  const unit = sql.raw(`'${bucket}'`);
  const hook = scope.webhookId ? sql`and d.webhook_id = ${scope.webhookId}` : sql``;
  const counts = await db.execute<{ start: string; status: string; n: string }>(sql`
    select (extract(epoch from date_trunc(${unit}, d.created_at at time zone 'UTC')) * 1000)::bigint as start, d.status, count(*) as n
    from webhook_deliveries d
    where d.network_id = ${scope.networkId} ${hook} and d.created_at >= ${since.toISOString()}::timestamptz
    group by 1, 2`);
  const latencies = await db.execute<{ start: string; p50: number | null; p95: number | null }>(sql`
    select (extract(epoch from date_trunc(${unit}, a.started_at at time zone 'UTC')) * 1000)::bigint as start,
           percentile_cont(0.5) within group (order by a.latency_ms) as p50,
           percentile_cont(0.95) within group (order by a.latency_ms) as p95
    from webhook_attempts a
    join webhook_deliveries d on d.network_id = a.network_id and d.id = a.delivery_id
    where a.network_id = ${scope.networkId} ${hook} and a.started_at >= ${since.toISOString()}::timestamptz and a.latency_ms is not null
    group by 1`);

  const step = STEP_MS[bucket];
  const byStart = new Map<number, DeliveryStatsBucket>();
  for (let t = bucketStart(since, bucket).getTime(); t <= now.getTime(); t += step) {
    byStart.set(t, { start: new Date(t), succeeded: 0, failed: 0, pending: 0, latencyP50Ms: null, latencyP95Ms: null });
  }
  // Bucket starts come back as epoch milliseconds (a bigint, as text).
  const keyOf = (start: string) => Number(start);
  for (const row of counts) {
    const b = byStart.get(keyOf(row.start));
    if (!b) continue;
    const status = row.status as 'succeeded' | 'failed' | 'pending';
    b[status] += Number(row.n);
  }
  for (const row of latencies) {
    const b = byStart.get(keyOf(row.start));
    if (!b) continue;
    b.latencyP50Ms = row.p50 === null ? null : Math.round(Number(row.p50));
    b.latencyP95Ms = row.p95 === null ? null : Math.round(Number(row.p95));
  }
  return [...byStart.values()];
}
