import { and, asc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client';
import { apiKeys, apiKeyScopes } from '../../../db/schema';
import type { Role } from '../../auth/roles';

export type KeyRow = typeof apiKeys.$inferSelect;
export interface KeyWithScopes {
  id: string;
  key: KeyRow;
  scopes: Array<{ networkId: string; role: Role }>;
}

export { keyStatus } from './key-status';

async function withScopes(db: Queryable, keys: KeyRow[]): Promise<KeyWithScopes[]> {
  if (keys.length === 0) return [];
  const scopes = await db
    .select()
    .from(apiKeyScopes)
    .where(inArray(apiKeyScopes.keyId, keys.map((k) => k.id)))
    .orderBy(asc(apiKeyScopes.networkId));
  return keys.map((key) => ({
    id: key.id,
    key,
    scopes: scopes.filter((s) => s.keyId === key.id).map((s) => ({ networkId: s.networkId, role: s.role })),
  }));
}

export type KeyOwner = { userId: string } | { serviceAccountId: string };

function ownerCondition(owner: KeyOwner): SQL {
  return 'userId' in owner ? eq(apiKeys.userId, owner.userId) : eq(apiKeys.serviceAccountId, owner.serviceAccountId);
}

/** One key of an owner, or undefined (also when it belongs to someone else: 404, ids are not leaked). */
export async function findOwnKey(db: Queryable, owner: KeyOwner, id: string): Promise<KeyWithScopes | undefined> {
  const rows = await db.select().from(apiKeys).where(and(eq(apiKeys.id, id), ownerCondition(owner)));
  return (await withScopes(db, rows))[0];
}

export async function listOwnKeys(db: Queryable, owner: KeyOwner, afterId: string | undefined, take: number) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(ownerCondition(owner), afterId ? gt(apiKeys.id, afterId) : undefined))
    .orderBy(asc(apiKeys.id))
    .limit(take);
  return withScopes(db, rows);
}

/** Keys with a scope on the network (what an administrator of it may see and revoke). */
export async function listNetworkKeys(db: Queryable, networkId: string, afterId: string | undefined, take: number) {
  const rows = await db
    .select({ key: apiKeys })
    .from(apiKeys)
    .innerJoin(apiKeyScopes, and(eq(apiKeyScopes.keyId, apiKeys.id), eq(apiKeyScopes.networkId, networkId)))
    .where(afterId ? gt(apiKeys.id, afterId) : undefined)
    .orderBy(asc(apiKeys.id))
    .limit(take);
  return withScopes(db, rows.map((r) => r.key));
}

export async function findNetworkKey(db: Queryable, networkId: string, id: string): Promise<KeyWithScopes | undefined> {
  const rows = await db
    .select({ key: apiKeys })
    .from(apiKeys)
    .innerJoin(apiKeyScopes, and(eq(apiKeyScopes.keyId, apiKeys.id), eq(apiKeyScopes.networkId, networkId)))
    .where(eq(apiKeys.id, id));
  return (await withScopes(db, rows.map((r) => r.key)))[0];
}

/** Revoke now (or at `at`, for a rotation's grace period). Already revoked keys keep their time. */
export async function revokeKeys(db: Queryable, condition: SQL, at?: Date): Promise<KeyRow[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: at ?? sql`now()` })
    .where(and(condition, or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, sql`now()`))))
    .returning();
}
