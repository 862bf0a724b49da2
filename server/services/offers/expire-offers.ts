import { and, eq, lte, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { offers } from '@/db/schema';
import { EVERY_NETWORK, updateVersioned } from '@/server/services/optimistic-lock';

/** Cron: mark open offers past expires_at as expired (reads already treat them so). */
export async function expireOffers({ db }: { db: Queryable }): Promise<number> {
  const rows = await updateVersioned({
    tx: db,
    table: offers,
    networkId: EVERY_NETWORK,
    set: { status: 'expired' },
    where: and(eq(offers.status, 'open'), lte(offers.expiresAt, sql`now()`)),
  }).returning({ id: offers.id });
  return rows.length;
}
