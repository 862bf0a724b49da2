import type { Tx } from '../../../db/client';
import type { Principal } from '../../auth/principal';
import { forbidden } from '../../errors';
import type { KeyWithScopes } from './find-keys';
import { rotateKey } from './rotate-key';

/**
 * An administrator rotates a key of their network (a member's or a service
 * account's). The replacement copies the key's scopes, so only a key whose
 * scopes are all on this network may be rotated here: one network's
 * administrator must not mint access to networks they do not administer
 * (rule 6). A super_user key needs a super_user caller (rule 7).
 */
export async function rotateNetworkKey(tx: Tx, principal: Principal, networkId: string, found: KeyWithScopes, graceSeconds: number) {
  if (found.key.superUser && !principal.superUser) throw forbidden('Only a super_user key can rotate a super_user key.');
  if (!principal.superUser && found.scopes.some((s) => s.networkId !== networkId)) {
    throw forbidden(
      `Rule 6: this key also reaches other networks, so rotating it would mint access beyond network ${networkId}. Its owner can rotate it with POST /v1/apikeys/{keyId}/rotate.`,
    );
  }
  return rotateKey(tx, principal.keyId, found, graceSeconds);
}
