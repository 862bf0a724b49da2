import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { keyOwner, withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { apiKeyScopes } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { recordAudit } from '@/server/services/audit/record-audit';
import { inNetwork, type KeyWithScopes } from './find-keys';
import { revokeKey } from './revoke-key';
import { revokeInvitationsSentByKey } from './withdraw-access';

/**
 * An administrator takes a key out of their network. A key scoped to this
 * network only is revoked; a key that also reaches other networks loses only
 * this network's scope — one network's administrator cannot cut access to
 * networks they do not administer. Answers with the network's view of the key.
 */
export async function removeKeyFromNetwork({
  tx,
  principal,
  networkId,
  found,
}: {
  tx: Tx;
  principal: Principal;
  networkId: string;
  found: KeyWithScopes;
}) {
  const others = found.granted.filter((s) => s.networkId !== networkId);
  if (others.length === 0) return inNetwork(await revokeKey({ tx, actorKeyId: principal.keyId, found }), networkId);
  await withdrawCredentialsOf(tx, [keyOwner(found.key)]);
  await tx.delete(apiKeyScopes).where(and(eq(apiKeyScopes.keyId, found.key.id), eq(apiKeyScopes.networkId, networkId)));
  await recordAudit({ tx, networkId, actorKeyId: principal.keyId, action: 'api_key.scope_removed', targetType: 'api_key', targetId: found.key.id });
  await revokeInvitationsSentByKey({
    tx,
    keyId: found.key.id,
    networkIds: [networkId],
    actorKeyId: principal.keyId,
    reason: 'api_key_scope_removed',
  });
  return { ...found, scopes: [], granted: [] };
}
