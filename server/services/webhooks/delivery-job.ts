import { sql, type SQL } from 'drizzle-orm';
import { jobSpecSql, jobSql, type SqlJobOptions } from '@/server/jobs/enqueue';

/**
 * A delivery's job: one per delivery at a time, by its key (`delivery:<id>`), so a retry, a
 * redelivery or a resumed subscription replaces the pending job instead of adding a second one.
 * Every place that makes one builds it here (server/jobs/enqueue.ts types the payload).
 */
export const deliveryJobKey = (deliveryId: string): string => `delivery:${deliveryId}`;

const deliveryJobKeySql = (deliveryId: SQL): SQL => sql`'delivery:' || (${deliveryId})::text`;

/** `add_job` of the delivery `deliveryId` of network `networkId` (both SQL expressions). */
export function deliveryJobSql(delivery: { deliveryId: SQL; networkId: SQL }, options: Omit<SqlJobOptions, 'jobKey'> = {}): SQL {
  return jobSql('deliver-webhook', delivery, { ...options, jobKey: deliveryJobKeySql(delivery.deliveryId) });
}

/** The same job as a `job_spec`, for `graphile_worker.add_jobs` (a fan-out, or put-backs, all at once). */
export function deliveryJobSpecSql(delivery: { deliveryId: SQL; networkId: SQL }, options: Pick<SqlJobOptions, 'queueName' | 'runAt'> = {}): SQL {
  return jobSpecSql('deliver-webhook', delivery, { ...options, jobKey: deliveryJobKeySql(delivery.deliveryId) });
}
