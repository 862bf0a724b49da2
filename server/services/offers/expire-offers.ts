import { and, eq, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { offers } from '../../../db/schema';

/** Cron: mark open offers past expires_at as expired (reads already treat them so). */
export async function expireOffers(db: Queryable): Promise<number> {
  const rows = await db
    .update(offers)
    .set({ status: 'expired', version: sql`${offers.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(offers.status, 'open'), lte(offers.expiresAt, sql`now()`)))
    .returning({ id: offers.id });
  return rows.length;
}
