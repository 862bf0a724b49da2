import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { serviceAccounts } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import type { Role } from '@/domain/roles';
import { recordAudit } from '@/server/services/audit/record-audit';
import { checkExpiry } from '@/server/services/keys/create-own-key';
import { mintServiceAccountKey, type NewServiceAccountKey } from './mint-service-account-key';

export interface NewServiceAccount {
  name: string;
  role: Role;
  /** The first key; its role is the account's role. */
  key: Omit<NewServiceAccountKey, 'role'>;
}

/**
 * Create a service account and mint its first key, in one transaction: an
 * account is never left without the credential its creator was promised.
 */
export async function createServiceAccount({
  tx,
  principal,
  networkId,
  ...input
}: { tx: Tx; principal: Principal; networkId: string } & NewServiceAccount) {
  checkExpiry(input.key.expiresAt);
  const [account] = await tx
    .insert(serviceAccounts)
    .values({ id: newId('serviceAccount'), networkId, name: input.name, role: input.role })
    .returning();
  await recordAudit({
    tx,
    networkId,
    actorKeyId: principal.keyId,
    action: 'service_account.created',
    targetType: 'service_account',
    targetId: account!.id,
    data: { name: input.name, role: input.role },
  });
  const firstKey = await mintServiceAccountKey({ tx, principal, account: account!, ...input.key, role: input.role });
  return { account: account!, firstKey };
}
