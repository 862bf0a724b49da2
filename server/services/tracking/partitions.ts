import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database, Tx } from '@/db/client';
import { networks, trackingSources } from '@/db/schema';
import { config } from '@/server/config';
import { logger } from '@/server/logger';
import { addDays, utcDay } from './hit-rules';
import { deleteSpentSalts } from './salts';

/*
 * `tracking_hits` is partitioned by UTC day (migration 0023): `tracking_hits_p20261201` holds the
 * hits received on 2026-12-01. Partitions are made ahead — at start and by the hourly cron — so an
 * insert never finds none, and dropped whole once older than TRACKING_RETENTION_DAYS: no row-by-row
 * delete of millions of hits. The rollups (`tracking_daily`) are kept.
 */

/** Partitions made before their day, so a cron that misses a run or two still leaves one ready. */
export const PARTITION_DAYS_AHEAD = 3;

export const partitionName = (day: string) => `tracking_hits_p${day.replaceAll('-', '')}`;

/**
 * Making or dropping a partition takes a lock on `tracking_hits` that waits for the flushes under way
 * — and every flush after it waits behind it. Past this it gives up (and the next run tries again)
 * rather than hold the tracking URL's answers up.
 */
const LOCK_TIMEOUT = '2s';

/**
 * The one-key advisory lock that makes and drops partitions one process at a time: two processes
 * starting together (or a start and the cron) each running `create table if not exists` for the same
 * day collide in the catalog (a unique violation on `pg_type`), "if not exists" notwithstanding.
 */
const PARTITION_LOCK_ID = 7_242_033;

/**
 * Make the partitions of yesterday through `PARTITION_DAYS_AHEAD` days after today (UTC) that are
 * missing. Returns the names this call made (another process may have made the rest).
 */
export async function ensureTrackingPartitions({ db, today = utcDay(Date.now()) }: { db: Database; today?: string }): Promise<string[]> {
  const days = Array.from({ length: PARTITION_DAYS_AHEAD + 2 }, (_, i) => addDays(today, i - 1));
  const existing = await partitionDays(db);
  const made: string[] = [];
  for (const day of days.filter((d) => !existing.includes(d))) {
    const name = partitionName(day);
    const created = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
      // Under the lock, the check's snapshot sees what the process before us committed.
      if (await existsUnderLock(tx, name)) return false;
      await tx.execute(
        sql.raw(`create table "${name}" partition of "tracking_hits" for values from ('${day}T00:00:00Z') to ('${addDays(day, 1)}T00:00:00Z')`),
      );
      return true;
    });
    if (created) made.push(name);
  }
  return made;
}

/** Take the partitions' lock (until the transaction ends), then tell whether the table `name` exists. */
async function existsUnderLock(tx: Tx, name: string): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(PARTITION_LOCK_ID))})`);
  const [row] = await tx.execute<{ present: boolean }>(sql`select to_regclass(${name}) is not null as present`);
  return row?.present === true;
}

/** The days of the partitions that exist, oldest first. */
export async function partitionDays(db: Database): Promise<string[]> {
  const rows = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'tracking_hits'::regclass order by c.relname`);
  return rows.flatMap(({ name }) => {
    const m = /^tracking_hits_p(\d{4})(\d{2})(\d{2})$/.exec(name);
    return m ? [`${m[1]}-${m[2]}-${m[3]}`] : [];
  });
}

/** Drop the partitions of days that ended more than `retentionDays` days ago. Returns the names dropped. */
export async function dropExpiredPartitions({
  db,
  today = utcDay(Date.now()),
  retentionDays = config().TRACKING_RETENTION_DAYS,
}: {
  db: Database;
  today?: string;
  retentionDays?: number;
}): Promise<string[]> {
  const oldestKept = addDays(today, -retentionDays);
  const dropped: string[] = [];
  for (const day of (await partitionDays(db)).filter((d) => d < oldestKept)) {
    const name = partitionName(day);
    const gone = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
      if (!(await existsUnderLock(tx, name))) return false;
      await tx.execute(sql.raw(`drop table "${name}"`));
      return true;
    });
    if (gone) dropped.push(name);
  }
  return dropped;
}

/**
 * Cron (hourly): partitions made ahead and dropped past retention, the salts that can no longer
 * dedupe deleted, and the sources' counts of days before yesterday (only today's are read) deleted.
 */
export async function maintainTracking({ db, now = Date.now() }: { db: Database; now?: number }): Promise<void> {
  const today = utcDay(now);
  const made = await ensureTrackingPartitions({ db, today });
  const dropped = await dropExpiredPartitions({ db, today });
  const salts = await deleteSpentSalts({ db, today });
  await deleteSpentSourceCounts({ db, before: addDays(today, -1) });
  if (made.length || dropped.length || salts) logger.info({ made, dropped, saltsDeleted: salts }, 'tracking maintained');
}

/** The sources' counts of days before `before`, network by network (each statement names its network, docs/SCALING.md). */
async function deleteSpentSourceCounts({ db, before }: { db: Database; before: string }): Promise<void> {
  let afterNetwork = '';
  for (;;) {
    const page = await db.select({ id: networks.id }).from(networks).where(gt(networks.id, afterNetwork)).orderBy(asc(networks.id)).limit(100);
    for (const { id } of page) {
      await db.delete(trackingSources).where(and(eq(trackingSources.networkId, id), lt(trackingSources.day, sql`${before}::date`)));
    }
    if (page.length < 100) return;
    afterNetwork = page.at(-1)!.id;
  }
}
