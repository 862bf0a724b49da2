import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { apiKeys } from '../../../db/schema';
import { conflict } from '../../errors';
import { auditKeyChange } from './create-own-key';
import { keyStatus, type KeyWithScopes } from './find-keys';
import { mintApiKey } from './mint-api-key';

/**
 * Replace a key with a new one (same owner, name, scopes, expiry). The old
 * token keeps working for `graceSeconds` (0 = stops now), then answers 401.
 */
export async function rotateKey(tx: Tx, actorKeyId: string, found: KeyWithScopes, graceSeconds: number) {
  const old = found.key;
  if (keyStatus(old) !== 'active' || old.replacedByKeyId) {
    throw conflict(`Only an active key that has not been rotated can be rotated; this one is ${old.replacedByKeyId ? 'already rotated' : keyStatus(old)}.`);
  }
  const minted = await mintApiKey(tx, {
    name: old.name,
    environment: old.environment,
    owner: old.userId ? { userId: old.userId } : { serviceAccountId: old.serviceAccountId! },
    superUser: old.superUser,
    scopes: found.scopes,
    expiresAt: old.expiresAt,
    createdByKeyId: actorKeyId,
  });
  const [updated] = await tx
    .update(apiKeys)
    .set({ replacedByKeyId: minted.key.id, revokedAt: sql`now() + make_interval(secs => ${graceSeconds})` })
    .where(and(eq(apiKeys.id, old.id), sql`${apiKeys.replacedByKeyId} is null`))
    .returning();
  if (!updated) throw conflict('This key was rotated concurrently. Re-fetch it.');
  await auditKeyChange(tx, actorKeyId, 'api_key.rotated', old.id, found.scopes, { replaced_by_key_id: minted.key.id, grace_seconds: graceSeconds });
  await auditKeyChange(tx, actorKeyId, 'api_key.created', minted.key.id, found.scopes, { rotated_from_key_id: old.id });
  return { ...minted, scopes: found.scopes };
}
