import { and, asc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { apiKeyAccess, apiKeys } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { coveredBy, networkKey, type Scope } from '@/server/auth/key-access';
import type { KeyStatus } from '@/domain/statuses';
import { ownerOf } from './owner';

export type KeyRow = typeof apiKeys.$inferSelect;
export interface KeyWithScopes {
  id: string;
  key: KeyRow;
  /** What the key does now (each grant capped by its owner's standing): what every view shows. */
  scopes: Scope[];
  /** What it was granted: what coverage and rotation go by. */
  granted: Scope[];
}

export { keyStatus } from './key-status';

/** The keys with their scopes, each narrowed to network `only` when given (a network's view shows nothing of others). */
async function withScopes(db: Queryable, keys: KeyRow[], only?: string): Promise<KeyWithScopes[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select()
    .from(apiKeyAccess)
    .where(
      and(
        inArray(
          apiKeyAccess.keyId,
          keys.map((k) => k.id),
        ),
        only ? eq(apiKeyAccess.networkId, only) : undefined,
      ),
    )
    .orderBy(asc(apiKeyAccess.networkId));
  return keys.map((key) => {
    const own = rows.filter((s) => s.keyId === key.id);
    return {
      id: key.id,
      key,
      scopes: own.flatMap((s) => (s.role ? [{ networkId: s.networkId, role: s.role }] : [])),
      granted: own.map((s) => ({ networkId: s.networkId, role: s.grantedRole })),
    };
  });
}

export type KeyOwner = { userId: string } | { serviceAccountId: string };

function ownerCondition(owner: KeyOwner): SQL {
  return 'userId' in owner ? eq(apiKeys.userId, owner.userId) : eq(apiKeys.serviceAccountId, owner.serviceAccountId);
}

/** The caller's own keys it may manage: its owner's, and only those its access covers (invariant 1). */
function ownKeys(caller: Principal): SQL {
  return and(ownerCondition(ownerOf(caller)), coveredBy(caller))!;
}

/** One key of the caller's owner that the caller covers, or undefined (404: ids are not leaked). */
export async function findOwnKey({ db, caller, id }: { db: Queryable; caller: Principal; id: string }): Promise<KeyWithScopes | undefined> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), ownKeys(caller)));
  return (await withScopes(db, rows))[0];
}

export async function listOwnKeys({ db, caller, afterId, take }: { db: Queryable; caller: Principal; afterId: string | undefined; take: number }) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(ownKeys(caller), afterId ? gt(apiKeys.id, afterId) : undefined))
    .orderBy(asc(apiKeys.id))
    .limit(take);
  return withScopes(db, rows);
}

/** Keys whose `keyStatus` is `status` now (the database's clock). */
function keyIsIn(status: KeyStatus): SQL {
  const revoked = lte(apiKeys.revokedAt, sql`now()`);
  const expired = lte(apiKeys.expiresAt, sql`now()`);
  if (status === 'revoked') return revoked;
  const notRevoked = or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, sql`now()`))!;
  if (status === 'expired') return and(notRevoked, expired)!;
  return and(notRevoked, or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)))!;
}

export interface NetworkKeyFilter {
  /** The person's or service account's id. */
  ownerId?: string | undefined;
  status?: KeyStatus | undefined;
}

/** The keys of the network (invariant 2), each showing only its scope there. */
export async function listNetworkKeys({
  db,
  networkId,
  filter = {},
  afterId,
  take,
}: {
  db: Queryable;
  networkId: string;
  filter?: NetworkKeyFilter;
  afterId: string | undefined;
  take: number;
}) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(
      and(
        networkKey(networkId),
        filter.ownerId ? or(eq(apiKeys.userId, filter.ownerId), eq(apiKeys.serviceAccountId, filter.ownerId)) : undefined,
        filter.status ? keyIsIn(filter.status) : undefined,
        afterId ? gt(apiKeys.id, afterId) : undefined,
      ),
    )
    .orderBy(asc(apiKeys.id))
    .limit(take);
  return withScopes(db, rows, networkId);
}

/** One key of the network, with all its grants (what rotation and revocation must weigh); views narrow it to the network. */
export async function findNetworkKey({ db, networkId, id }: { db: Queryable; networkId: string; id: string }): Promise<KeyWithScopes | undefined> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), networkKey(networkId)));
  return (await withScopes(db, rows))[0];
}

/** A key as its network's view shows it: only the scope on that network. */
export function inNetwork(found: KeyWithScopes, networkId: string): KeyWithScopes {
  const here = (s: Scope) => s.networkId === networkId;
  return { ...found, scopes: found.scopes.filter(here), granted: found.granted.filter(here) };
}

/**
 * Revoke now: a compare-and-set on "not revoked yet" (a key in a rotation's grace period is not yet
 * revoked, and this ends its grace). Already revoked keys keep their time and are not returned.
 */
export async function revokeKeys({ db, condition }: { db: Queryable; condition: SQL }): Promise<KeyRow[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(condition, or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, sql`now()`))))
    .returning();
}
