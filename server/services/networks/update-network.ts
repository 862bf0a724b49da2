import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { networks } from '../../../db/schema';
import { notFound } from '../../errors';
import { findNetwork } from './find-network';
import { versionToWrite, modifiedConcurrently } from '../optimistic-lock';

/**
 * Optimistically locked update: the write is conditional on the version the
 * client expects (or, if it sent none, the one we just read), so of two
 * concurrent writers exactly one wins and the other gets 409.
 */
export async function updateNetwork(tx: Tx, id: string, changes: { name?: string }, expected: number | undefined) {
  const current = await findNetwork(tx, id);
  if (!current) throw notFound('Network');
  const version = versionToWrite('Network', current.version, expected);
  const [row] = await tx
    .update(networks)
    .set({ ...changes, version: sql`${networks.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(networks.id, id), eq(networks.version, version)))
    .returning();
  if (!row) throw modifiedConcurrently('Network');
  return row;
}
