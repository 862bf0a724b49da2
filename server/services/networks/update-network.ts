import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { networks } from '@/db/schema';
import { notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { findNetwork } from './find-network';
import { versionToWrite, modifiedConcurrently, updateVersioned } from '@/server/services/optimistic-lock';

/**
 * Optimistically locked update: the write is conditional on the version the
 * client expects (or, if it sent none, the one we just read), so of two
 * concurrent writers exactly one wins and the other gets 409. Audited (`network.updated`): the key
 * lifetime limit is a security setting.
 */
export async function updateNetwork({
  tx,
  id,
  changes,
  expected,
  actorKeyId,
}: {
  tx: Tx;
  id: string;
  changes: { name?: string; maxKeyLifetimeDays?: number | null };
  expected: number | undefined;
  /** The key making the change, for the audit log. */
  actorKeyId: string;
}) {
  const current = await findNetwork({ db: tx, id });
  if (!current) throw notFound('Network');
  const version = versionToWrite('Network', current.version, expected);
  const [row] = await updateVersioned({ tx, table: networks, set: changes, where: eq(networks.id, id), version }).returning();
  if (!row) throw modifiedConcurrently('Network');
  await recordAudit({
    tx,
    networkId: id,
    actorKeyId,
    action: 'network.updated',
    targetType: 'network',
    targetId: id,
    data: {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.maxKeyLifetimeDays !== undefined && { max_key_lifetime_days: changes.maxKeyLifetimeDays }),
    },
  });
  return row;
}
