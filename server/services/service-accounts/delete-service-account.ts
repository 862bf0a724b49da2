import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { apiKeys, serviceAccounts } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { conflict, notFound } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { revokeKeys } from '@/server/services/keys/find-keys';
import { revokeInvitationsSentBy } from '@/server/services/keys/withdraw-access';
import { findServiceAccount } from './find-service-account';

/**
 * Delete a service account: mark it deleted and revoke every key it holds, in
 * one transaction, so its keys get 401 from the next request on. The row is
 * kept (status `deleted`) for the audit trail; deleting it again is a 409.
 */
export async function deleteServiceAccount({ tx, principal, networkId, id }: { tx: Tx; principal: Principal; networkId: string; id: string }) {
  const found = await findServiceAccount({ db: tx, networkId, id });
  if (!found) throw notFound('Service account');
  await withdrawCredentialsOf(tx, [found.id]);
  // Conditional on not yet deleted: of two concurrent deletes exactly one wins.
  const [account] = await tx
    .update(serviceAccounts)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(serviceAccounts.networkId, found.networkId), eq(serviceAccounts.id, found.id), isNull(serviceAccounts.deletedAt)))
    .returning();
  if (!account) throw conflict('This service account is already deleted.');
  await recordAudit({
    tx,
    networkId,
    actorKeyId: principal.keyId,
    action: 'service_account.deleted',
    targetType: 'service_account',
    targetId: account.id,
    data: { name: account.name, role: account.role },
  });
  const revoked = (await revokeKeys({ db: tx, condition: eq(apiKeys.serviceAccountId, account.id) })).sort((a, b) => a.id.localeCompare(b.id));
  for (const key of revoked) {
    await recordAudit({
      tx,
      networkId,
      actorKeyId: principal.keyId,
      action: 'api_key.revoked',
      targetType: 'api_key',
      targetId: key.id,
      data: { reason: 'service_account_deleted', service_account_id: account.id },
    });
  }
  await revokeInvitationsSentBy({
    tx,
    owner: { serviceAccountId: account.id },
    networkId,
    actorKeyId: principal.keyId,
    reason: 'service_account_deleted',
  });
  return { account, revokedKeyIds: revoked.map((k) => k.id) };
}
