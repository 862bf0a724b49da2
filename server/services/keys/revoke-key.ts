import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apiKeys } from '@/db/schema';
import { auditKeyChange } from './create-own-key';
import { revokeKeys, type KeyWithScopes } from './find-keys';

/**
 * Revoke a key now: it gets 401 from the next request on. Revoking a revoked
 * key changes nothing (DELETE is idempotent) and writes no audit row.
 */
export async function revokeKey({ tx, actorKeyId, found }: { tx: Tx; actorKeyId: string; found: KeyWithScopes }): Promise<KeyWithScopes> {
  const [revoked] = await revokeKeys({ db: tx, condition: eq(apiKeys.id, found.key.id) });
  if (!revoked) return found;
  await auditKeyChange({ tx, actorKeyId, action: 'api_key.revoked', keyId: revoked.id, scopes: found.granted });
  return { ...found, key: revoked };
}
