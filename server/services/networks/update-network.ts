import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { networks } from '@/db/schema';
import { notFound } from '@/server/errors';
import { findNetwork } from './find-network';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';

/**
 * Optimistically locked update: the write is conditional on the version the
 * client expects (or, if it sent none, the one we just read), so of two
 * concurrent writers exactly one wins and the other gets 409.
 */
export async function updateNetwork({ tx, id, changes, expected }: { tx: Tx; id: string; changes: { name?: string }; expected: number | undefined }) {
  const current = await findNetwork({ db: tx, id });
  if (!current) throw notFound('Network');
  const version = versionToWrite('Network', current.version, expected);
  const [row] = await updateVersioned({ tx, table: networks, set: changes, where: eq(networks.id, id), version }).returning();
  if (!row) throw modifiedConcurrently('Network');
  return row;
}
