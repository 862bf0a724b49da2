import type { Tx } from '@/db/client';
import type { Principal } from '@/server/auth/principal';
import { forbidden } from '@/server/errors';
import type { KeyWithScopes } from './find-keys';
import { rotateKey } from './rotate-key';

/**
 * An administrator rotates a key of their network (a member's or a service
 * account's). The replacement copies the key's grants, so only a key whose
 * every scope is on this network may be rotated here: one network's
 * administrator must not mint access to networks they do not administer.
 */
export async function rotateNetworkKey({
  tx,
  principal,
  networkId,
  found,
  graceSeconds,
}: {
  tx: Tx;
  principal: Principal;
  networkId: string;
  found: KeyWithScopes;
  graceSeconds: number;
}) {
  if (found.granted.some((s) => s.networkId !== networkId)) {
    throw forbidden(
      `This key also reaches other networks, so rotating it would mint access beyond network ${networkId} (rule 6). Its owner can rotate it with POST /v1/apikeys/{keyId}/rotate.`,
    );
  }
  return rotateKey({ tx, caller: principal, found, graceSeconds });
}
