import type { Tx } from '@/db/client';
import type { Principal } from '@/server/auth/principal';
import { roleAtLeast, type Role } from '@/domain/roles';
import { conflict, forbidden, notFound } from '@/server/errors';
import { checkExpiry, mintAuditedKey } from '@/server/services/keys/create-own-key';
import { lockServiceAccount, type ServiceAccountRow } from './find-service-account';

export interface NewServiceAccountKey {
  name: string;
  /** Default: the account's role. Never above it, nor above the minter's access. */
  role?: Role;
  expiresAt?: Date;
}

/**
 * Mint a key for a service account, scoped to the account's network only (a
 * service account belongs to one network). The token is returned once.
 */
export async function mintServiceAccountKey({
  tx,
  principal,
  account,
  ...input
}: { tx: Tx; principal: Principal; account: ServiceAccountRow } & NewServiceAccountKey) {
  if (account.deletedAt) throw conflict('This service account is deleted; its keys were revoked and it cannot get new ones.');
  const role = input.role ?? account.role;
  if (!roleAtLeast(account.role, role)) {
    throw forbidden(`A key of this service account cannot exceed the account's role (${account.role}); you asked for ${role}.`);
  }
  checkExpiry(input.expiresAt);
  return mintAuditedKey({
    tx,
    creator: principal,
    name: input.name,
    owner: { serviceAccountId: account.id },
    scopes: [{ networkId: account.networkId, role }],
    expiresAt: input.expiresAt,
    audit: { service_account_id: account.id },
  });
}

/** POST …/service-accounts/{id}/keys: another key for an account of this network (404 for another network's). */
export async function createServiceAccountKey({
  tx,
  principal,
  networkId,
  serviceAccountId,
  ...input
}: { tx: Tx; principal: Principal; networkId: string; serviceAccountId: string } & NewServiceAccountKey) {
  const account = await lockServiceAccount({ tx, networkId, id: serviceAccountId });
  if (!account) throw notFound('Service account');
  return mintServiceAccountKey({ tx, principal, account, ...input });
}
