import { lt } from 'drizzle-orm';
import { database } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';

/** Cron task: forget Idempotency-Keys past their 24 h window. */
export async function pruneIdempotencyKeys(): Promise<number> {
  const removed = await database().delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, new Date())).returning({ key: idempotencyKeys.key });
  return removed.length;
}
