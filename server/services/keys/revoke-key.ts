import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { keyOwner, withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { apiKeys } from '@/db/schema';
import { auditKeyChange } from './create-own-key';
import { revokeKeys, type KeyWithScopes } from './find-keys';
import { revokeInvitationsSentByKey } from './withdraw-access';

/**
 * Revoke a key now: it gets 401 from the next request on, its writes in flight finish first
 * (migration 0010), and the invitations it sent that are still pending are revoked with it.
 * Revoking a revoked key changes nothing (DELETE is idempotent) and writes no audit row.
 */
export async function revokeKey({ tx, actorKeyId, found }: { tx: Tx; actorKeyId: string; found: KeyWithScopes }): Promise<KeyWithScopes> {
  await withdrawCredentialsOf(tx, [keyOwner(found.key)]);
  const [revoked] = await revokeKeys({ db: tx, condition: eq(apiKeys.id, found.key.id) });
  if (!revoked) return found;
  await auditKeyChange({ tx, actorKeyId, action: 'api_key.revoked', keyId: revoked.id, scopes: found.granted });
  await revokeInvitationsSentByKey({
    tx,
    keyId: revoked.id,
    networkIds: found.granted.map((s) => s.networkId),
    actorKeyId,
    reason: 'api_key_revoked',
  });
  return { ...found, key: revoked };
}
