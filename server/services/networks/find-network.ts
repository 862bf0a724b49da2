import { eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { networks } from '@/db/schema';

export type NetworkRow = typeof networks.$inferSelect;

export async function findNetwork({ db, id }: { db: Queryable; id: string }): Promise<NetworkRow | undefined> {
  const [row] = await db.select().from(networks).where(eq(networks.id, id)).prepare('find_network').execute();
  return row;
}
