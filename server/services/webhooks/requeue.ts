import { sql } from 'drizzle-orm';
import type postgres from 'postgres';
import { statement } from '@/db/statement';
import { addJobsSql } from '@/server/jobs/enqueue';
import { deliveryJobSpecSql } from './delivery-job';

/** A delivery's job put back without an attempt (lanes.ts): where it goes, and when. */
export interface PutBack {
  deliveryId: string;
  networkId: string;
  queueName: string | null;
  runAt: Date;
}

/**
 * Put-backs of one process written together: every put-back within PUT_BACK_GATHER_MS shares one
 * `add_jobs` call. A network whose endpoints hang has its whole fetched backlog put back at once
 * — hundreds of jobs — and one statement each was a burst of writes, and of `jobs:insert`
 * notifications that wake every pool, which slowed other networks' requests on the same machine
 * (docs/PERFORMANCE.md, "Noisy neighbours"). A job keeps its key (`delivery:<id>`), so the running
 * job's key is cleared and it completes at once, as with `add_job`.
 */
export const PUT_BACK_GATHER_MS = 5;
/** The most put-backs in one statement. */
const PUT_BACK_BATCH = 500;

const putBackStatement = statement<never, { items: string }>(sql`
  select count(*) from ${addJobsSql(sql`array(
    select ${deliveryJobSpecSql({ deliveryId: sql`x.delivery_id`, networkId: sql`x.network_id` }, { queueName: sql`x.queue_name`, runAt: sql`x.run_at` })}
      from jsonb_to_recordset(${sql.placeholder('items')}::text::jsonb) as x(delivery_id uuid, network_id text, queue_name text, run_at timestamptz))`)}`);

interface Batch {
  items: PutBack[];
  written: Promise<void>;
}

const gathering = new WeakMap<postgres.Sql, Batch>();

/** Put `job` back on `client`'s database; settles once its batch is written (or rejects with it). */
export function putBack(client: postgres.Sql, job: PutBack): Promise<void> {
  let batch = gathering.get(client);
  if (!batch) {
    const items: PutBack[] = [];
    const written = new Promise<void>((resolve) => setTimeout(resolve, PUT_BACK_GATHER_MS)).then(async () => {
      if (gathering.get(client) === batch) gathering.delete(client);
      const rows = items.map((i) => ({ delivery_id: i.deliveryId, network_id: i.networkId, queue_name: i.queueName, run_at: i.runAt.toISOString() }));
      await putBackStatement(client, { items: JSON.stringify(rows) });
    });
    batch = { items, written };
    gathering.set(client, batch);
  }
  batch.items.push(job);
  if (batch.items.length >= PUT_BACK_BATCH) gathering.delete(client);
  return batch.written;
}
