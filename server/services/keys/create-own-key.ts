import type { Tx } from '@/db/client';
import type { Scope } from '@/server/auth/key-access';
import type { Principal } from '@/server/auth/principal';
import type { Role } from '@/domain/roles';
import { badRequest } from '@/server/errors';
import { recordAudit } from '@/server/services/audit/record-audit';
import { mintApiKey } from './mint-api-key';
import type { KeyOwner } from './find-keys';
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
  return mintAuditedKey({
    tx,
    creator: principal,
    name: input.name,
    owner: ownerOf(principal),
    superUser: input.superUser ?? false,
    scopes,
    expiresAt: input.expiresAt,
  });
}

/**
 * A key a calling key creates for an owner (its own, or a service account's), with the audit of
 * its creation (`api_key.created`, one row per network it reaches) on the same transaction.
 * `audit` adds to what the rows say of the key.
 */
export async function mintAuditedKey({
  tx,
  creator,
  name,
  owner,
  superUser = false,
  scopes,
  expiresAt,
  audit = {},
}: {
  tx: Tx;
  creator: Principal;
  name: string;
  owner: KeyOwner;
  superUser?: boolean;
  scopes: Scope[];
  expiresAt: Date | undefined;
  audit?: Record<string, unknown>;
}) {
  const minted = await mintApiKey({ tx, name, owner, creator, superUser, scopes, expiresAt: expiresAt ?? null });
  await auditKeyChange({
    tx,
    actorKeyId: creator.keyId,
    action: 'api_key.created',
    keyId: minted.key.id,
    scopes,
    data: { key_name: name, super_user: superUser, ...audit },
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
