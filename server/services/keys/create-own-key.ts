import type { Tx } from '@/db/client';
import type { Principal } from '@/server/auth/principal';
import type { Role } from '@/domain/roles';
import { config } from '@/server/config';
import { badRequest } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { mintApiKey } from './mint-api-key';
import { ownerOf } from './owner';

export interface NewKey {
  name: string;
  /** Default: the same scopes the calling key has now. */
  scopes?: Array<{ networkId: string; role: Role }>;
  superUser?: boolean;
  expiresAt?: Date;
}

export function checkExpiry(expiresAt: Date | undefined): void {
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw badRequest('expires_at must be in the future.', [{ path: 'expires_at', message: 'Must be in the future.' }]);
  }
}

/** Self-service: a key mints another key for its own owner, within its own access. */
export async function createOwnKey({ tx, principal, ...input }: { tx: Tx; principal: Principal } & NewKey) {
  const scopes = input.scopes ?? [...principal.scopes].map(([networkId, role]) => ({ networkId, role }));
  checkExpiry(input.expiresAt);
  const minted = await mintApiKey({
    tx,
    name: input.name,
    environment: config().APP_ENV,
    owner: ownerOf(principal),
    creator: principal,
    superUser: input.superUser ?? false,
    scopes,
    expiresAt: input.expiresAt ?? null,
  });
  await auditKeyChange({
    tx,
    actorKeyId: principal.keyId,
    action: 'api_key.created',
    keyId: minted.key.id,
    scopes,
    data: { key_name: input.name, super_user: input.superUser ?? false },
  });
  return { ...minted, scopes };
}

/** One audit row per network the key is scoped to (each network's administrators see it), or one outside any network. */
export async function auditKeyChange({
  tx,
  actorKeyId,
  action,
  keyId,
  scopes,
  data = {},
}: {
  tx: Tx;
  actorKeyId: string | null;
  action: string;
  keyId: string;
  scopes: Array<{ networkId: string }>;
  data?: Record<string, unknown>;
}) {
  const networks = scopes.length ? scopes.map((s) => s.networkId) : [null];
  for (const networkId of networks) {
    await recordAudit({ tx, networkId, actorKeyId, action, targetType: 'api_key', targetId: keyId, data });
  }
}
