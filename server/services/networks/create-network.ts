import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { networks } from '@/db/schema';

export async function createNetwork({ tx, ...input }: { tx: Tx; name: string }) {
  const [row] = await tx
    .insert(networks)
    .values({ id: newId('network'), name: input.name })
    .returning();
  return row!;
}
