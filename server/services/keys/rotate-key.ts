import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { keyOwner, withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { apiKeys } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { conflict } from '@/server/errors';
import { auditKeyChange } from './create-own-key';
import { keyStatus, type KeyWithScopes } from './find-keys';
import { mintReplacementKey } from './mint-api-key';

/**
 * Replace a key with a new one (same owner, name, grants, expiry). The old
 * token keeps working for `graceSeconds` (0 = stops now), then answers 401.
 * The caller was found to cover the old key (its query did that); the new key
 * is minted like any other, so rules 6 and 7 and advertised = working hold.
 */
export async function rotateKey({ tx, caller, found, graceSeconds }: { tx: Tx; caller: Principal; found: KeyWithScopes; graceSeconds: number }) {
  const old = found.key;
  if (old.session) {
    throw conflict('A console session’s key is not rotated: it ends at sign-out or when it expires. Sign in again for a new one.');
  }
  await withdrawCredentialsOf(tx, [keyOwner(old)]);
  if (keyStatus(old) !== 'active' || old.replacedByKeyId) {
    throw conflict(
      `Only an active key that has not been rotated can be rotated; this one is ${old.replacedByKeyId ? 'already rotated' : keyStatus(old)}.`,
    );
  }
  const minted = await mintReplacementKey({
    tx,
    name: old.name,
    owner: old.userId ? { userId: old.userId } : { serviceAccountId: old.serviceAccountId! },
    creator: caller,
    superUser: old.superUser,
    scopes: found.granted,
    mode: old.environment, // a key that has lost its scopes is still of its mode
    expiresAt: old.expiresAt,
    // It keeps the old key's end, cut to the networks' key lifetime limit if that has since shrunk.
    beyondLifetime: 'shorten',
  });
  // Compare-and-set on the state read above: a key revoked, expired or rotated since then is not
  // brought back by this grace period (a lost race is a 409, never a resurrection).
  const [updated] = await tx
    .update(apiKeys)
    .set({ replacedByKeyId: minted.key.id, revokedAt: sql`now() + make_interval(secs => ${graceSeconds})` })
    .where(
      and(
        eq(apiKeys.id, old.id),
        isNull(apiKeys.replacedByKeyId),
        old.revokedAt ? eq(apiKeys.revokedAt, old.revokedAt) : isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`statement_timestamp()`)),
      ),
    )
    .returning();
  if (!updated) throw conflict('This key was revoked or rotated while this request ran, so it was not rotated. Re-fetch it.');
  await auditKeyChange({
    tx,
    actorKeyId: caller.keyId,
    action: 'api_key.rotated',
    keyId: old.id,
    scopes: found.granted,
    data: { replaced_by_key_id: minted.key.id, grace_seconds: graceSeconds },
  });
  await auditKeyChange({
    tx,
    actorKeyId: caller.keyId,
    action: 'api_key.created',
    keyId: minted.key.id,
    scopes: found.granted,
    data: { rotated_from_key_id: old.id },
  });
  return minted;
}
