import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { apiKeys, apiKeyScopes, memberships, serviceAccounts } from '@/db/schema';
import { actsInMode, type Principal } from '@/server/auth/principal';
import { MODES, type Mode } from '@/domain/modes';
import { roleAtLeast, type Role } from '@/domain/roles';
import { forbidden } from '@/server/errors';

export interface Scope {
  networkId: string;
  role: Role;
}

/** What a key was granted (or is asked for): the super_user flag and its scopes. */
export interface Grants {
  superUser: boolean;
  scopes: Scope[];
  /** It proves who its owner is (`api_keys.identifies_owner`). */
  identifiesOwner?: boolean;
  /** Its mode (`api_keys.environment`): a key covers keys of the modes it acts in only. */
  mode?: Mode;
}

/**
 * Spec rules 6 and 7: a new key's scopes must be within the creator's access
 * (same networks, equal or lower role), and only a super_user key may mint a
 * super_user key. Throws 403 naming the rule that was broken.
 */
export function assertWithinCreatorAccess(creator: Principal, requested: Grants): void {
  if (requested.superUser && !creator.superUser) {
    throw forbidden('Only a super_user key can mint a super_user key (rule 7).');
  }
  if (creator.superUser) return;
  for (const scope of requested.scopes) {
    const held = creator.scopes.get(scope.networkId);
    if (!held) {
      throw forbidden(`A new key's scopes must be within your access: you have no access to network ${scope.networkId} (rule 6).`);
    }
    if (!roleAtLeast(held, scope.role)) {
      throw forbidden(`A new key's scopes must be within your access: you hold ${held} on network ${scope.networkId}, not ${scope.role} (rule 6).`);
    }
  }
}

/**
 * Invariant 1 as a query predicate on `api_keys`: the keys whose grants the
 * caller's access covers now — every key for a super_user; otherwise keys that
 * are not super_user, hold no scope beyond the caller's (a network the caller
 * lacks, or administrator where the caller reads only) and prove their owner's
 * identity only if the caller does too (an administrator's key minted for a
 * person must not revoke the keys the person signs in with). Every query that
 * lists, reads, rotates or revokes a key by its owner goes through it, so
 * owning a key grants nothing by itself.
 */
export function coveredBy(caller: Principal): SQL | undefined {
  // A key covers keys of the modes it acts in (as `covers` says): a test key test keys only, a sandbox
  // key never reaching a live one; a live key live keys only, but for the operator's and a session.
  const modes = MODES.filter((m) => actsInMode(caller, m));
  const mode = modes.length === MODES.length ? undefined : inArray(apiKeys.environment, modes);
  if (caller.superUser) return mode;
  const identity = caller.identifiesOwner ? undefined : eq(apiKeys.identifiesOwner, false);
  const administered: string[] = [];
  const read: string[] = [];
  for (const [networkId, role] of caller.scopes) (role === 'administrator' ? administered : read).push(networkId);
  const withinAccess = or(
    administered.length ? inArray(apiKeyScopes.networkId, administered) : sql`false`,
    read.length ? and(inArray(apiKeyScopes.networkId, read), eq(apiKeyScopes.role, 'read_only')) : sql`false`,
  )!;
  const beyond = sql`exists (select 1 from ${apiKeyScopes} where ${apiKeyScopes.keyId} = ${apiKeys.id} and not (${withinAccess}))`;
  return and(eq(apiKeys.superUser, false), mode, identity, sql`not ${beyond}`);
}

/** The same rule for one key already loaded (its granted scopes). */
export function covers(caller: Principal, target: Grants): boolean {
  if (target.mode && !actsInMode(caller, target.mode)) return false;
  if (caller.superUser) return true;
  if (target.superUser || (target.identifiesOwner && !caller.identifiesOwner)) return false;
  return target.scopes.every((s) => {
    const held = caller.scopes.get(s.networkId);
    return held !== undefined && roleAtLeast(held, s.role);
  });
}

/**
 * Invariant 2 as a query predicate on `api_keys`: the keys of network `n`,
 * which its administrators may see and manage — scoped to `n`, not super_user,
 * and owned by an active member of `n` or by a service account of `n`. A person
 * who has ever held a super_user key is the operator, whose keys are never a
 * network's.
 */
export function networkKey(networkId: string): SQL {
  const scopedHere = sql`exists (select 1 from ${apiKeyScopes} where ${apiKeyScopes.keyId} = ${apiKeys.id} and ${apiKeyScopes.networkId} = ${networkId})`;
  const activeMember = sql`exists (select 1 from ${memberships} where ${memberships.userId} = ${apiKeys.userId}
    and ${memberships.networkId} = ${networkId} and ${memberships.status} = 'active')`;
  const operator = sql`exists (select 1 from api_keys su where su.user_id = ${apiKeys.userId} and su.super_user)`;
  const accountHere = sql`exists (select 1 from ${serviceAccounts} where ${serviceAccounts.id} = ${apiKeys.serviceAccountId}
    and ${serviceAccounts.networkId} = ${networkId})`;
  return and(eq(apiKeys.superUser, false), scopedHere, or(and(activeMember, sql`not ${operator}`), accountHere))!;
}
