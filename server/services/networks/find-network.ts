import { eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { networks } from '@/db/schema';
import type { Mode } from '@/domain/modes';

export type NetworkRow = typeof networks.$inferSelect;

export async function findNetwork({ db, id }: { db: Queryable; id: string }): Promise<NetworkRow | undefined> {
  const [row] = await db.select().from(networks).where(eq(networks.id, id)).prepare('find_network').execute();
  return row;
}

const modes = new Map<string, Mode>();

/**
 * A network's mode. It never changes after creation, so each process remembers it (bounded); an
 * unknown network is a test one, which calls no vendor and marks what it sends.
 */
export async function networkMode({ db, id }: { db: Queryable; id: string }): Promise<Mode> {
  const known = modes.get(id);
  if (known) return known;
  const [row] = await db.select({ mode: networks.mode }).from(networks).where(eq(networks.id, id));
  if (!row) return 'test';
  if (modes.size >= 10_000) modes.clear();
  modes.set(id, row.mode);
  return row.mode;
}
