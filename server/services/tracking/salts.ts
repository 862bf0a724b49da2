import { randomBytes } from 'node:crypto';
import { inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { trackingSalts } from '@/db/schema';
import { addDays } from './hit-rules';

/*
 * Each UTC day's hashes are made with a salt of that day: 32 random bytes in `tracking_salts`, made
 * by the first process that records a hit of the day (the others read it). A hit is looked up under
 * its day's salt and the previous day's (the rolling 24 hours) — and the next day's, when that day
 * has begun: another process may have recorded the listener's next hit first — so a salt is kept for
 * its day and the next, then deleted: here from memory, by the cron (`deleteSpentSalts`) from the database.
 */

const known = new Map<string, Buffer | null>();
/** When a missing salt (no hit that day) was last looked for: it is looked for again after a minute. */
const missingSince = new Map<string, number>();
const RECHECK_MISSING_MS = 60_000;

/**
 * The salts of `make` — made if still missing: the days of the hits being recorded, up to today —
 * and of `read`, only read (the days before them: null when that day recorded nothing, looked for
 * again after a minute). Forgets salts older than the day before the earliest of `make`.
 */
export async function saltsFor({ db, make, read = [] }: { db: Database; make: string[]; read?: string[] }): Promise<Map<string, Buffer | null>> {
  const earliest = make.reduce((a, b) => (a < b ? a : b));
  for (const day of known.keys()) if (day < addDays(earliest, -1)) known.delete(day);
  const now = Date.now();
  const wanted = [...new Set([...make, ...read])];
  const missing = wanted.filter((day) => {
    if (known.get(day)) return false;
    if (!make.includes(day) && known.has(day) && now - (missingSince.get(day) ?? 0) < RECHECK_MISSING_MS) return false;
    return true;
  });
  if (missing.length > 0) {
    const toMake = missing.filter((day) => make.includes(day));
    if (toMake.length > 0) {
      await db
        .insert(trackingSalts)
        .values(toMake.map((day) => ({ day, salt: randomBytes(32) })))
        .onConflictDoNothing();
    }
    const rows = await db.select().from(trackingSalts).where(inArray(trackingSalts.day, missing));
    for (const day of missing) {
      const salt = rows.find((row) => row.day === day)?.salt ?? null;
      known.set(day, salt);
      if (!salt) missingSince.set(day, now);
    }
  }
  return new Map(wanted.map((day) => [day, known.get(day) ?? null]));
}

/** Cron: delete the salts that can no longer dedupe (days before yesterday, UTC). */
export async function deleteSpentSalts({ db, today }: { db: Database; today: string }): Promise<number> {
  const gone = await db
    .delete(trackingSalts)
    .where(lt(trackingSalts.day, sql`${addDays(today, -1)}::date`))
    .returning({ day: trackingSalts.day });
  return gone.length;
}
