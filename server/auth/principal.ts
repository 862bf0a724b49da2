import { and, eq, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { database, sqlClient } from '@/db/client';
import { apiKeyAccess, apiKeys, networks, serviceAccounts, users } from '@/db/schema';
import { statement } from '@/db/statement';
import { unauthorized } from '@/server/errors';
import type { Mode } from '@/domain/modes';
import type { Role } from '@/domain/roles';
import { config } from '@/server/config';
import { API_KEY_PATTERN, hashToken } from './tokens';

/** Who is calling: one API key, with the roles it may act with right now. */
export interface Principal {
  keyId: string;
  keyName: string;
  superUser: boolean;
  userId: string | null;
  serviceAccountId: string | null;
  /** The person's or service account's name (GET /v1/me, the console's "signed in as"). */
  ownerName: string;
  /** The owner got this key themselves, so it proves who they are (see `api_keys.identifies_owner`). */
  identifiesOwner: boolean;
  /** A console session's key, got by signing in (`api_keys.session`): it signs out rather than being revoked. */
  session: boolean;
  /** `sk_test_` or `sk_live_` (`api_keys.environment`): which networks it may act on, see `actsInMode`. */
  mode: Mode;
  /** Effective role per network: min(scope role, the owner's current role there), on networks it acts in the mode of. */
  scopes: ReadonlyMap<string, Role>;
  /** Networks it is scoped to but may not act on, being of the other mode (a key made before modes): a 403 says why. */
  otherModeScopes: ReadonlySet<string>;
  /** When the key stops working (epoch ms), or null: a write must finish before it (server/auth/credential-lock.ts). */
  expiresAt: number | null;
}

export interface KeyRow {
  id: string;
  name: string;
  super_user: boolean;
  user_id: string | null;
  service_account_id: string | null;
  owner_name: string;
  identifies_owner: boolean;
  session: boolean;
  mode: Mode;
  expires_at_ms: number | null;
  expired: boolean;
  revoked: boolean;
  last_used_stale: boolean;
  scopes: Array<{ network_id: string; role: Role; mode: Mode }>;
}

const k = apiKeys;
const a = apiKeyAccess;
const owner = serviceAccounts;
const person = users;
const network = networks;

/**
 * A key with its owner's name and what each scope (of those `scopes` picks) does now; `where` picks
 * the key. "Now" is this statement's start, not its transaction's (`now()`): a write's transaction
 * reads the key again after waiting for a revocation that began, and stamped `revoked_at`, after it.
 */
const keyWithAccess = (where: SQL, scopes = sql`true`) => sql`
  select ${k.id}, ${k.name}, ${k.superUser}, ${k.userId}, ${k.serviceAccountId}, ${k.identifiesOwner}, ${k.session}, ${k.environment} as mode,
    coalesce(${person.name}, ${owner.name}, '') as owner_name,
    (${k.lastUsedAt} is null or ${k.lastUsedAt} < now() - interval '1 minute') as last_used_stale,
    (extract(epoch from ${k.expiresAt}) * 1000)::float8 as expires_at_ms,
    (${k.expiresAt} is not null and ${k.expiresAt} <= statement_timestamp()) as expired,
    (${k.revokedAt} is not null and ${k.revokedAt} <= statement_timestamp()) as revoked,
    coalesce((
      select json_agg(json_build_object('network_id', ${a.networkId}, 'role', ${a.role}, 'mode', ${network.mode}) order by ${a.networkId})
      from ${a} join ${network} on ${network.id} = ${a.networkId}
      where ${a.keyId} = ${k.id} and ${a.role} is not null and ${scopes}
    ), '[]'::json) as scopes
  from ${k}
  left join ${owner} on ${owner.id} = ${k.serviceAccountId}
  left join ${person} on ${person.id} = ${k.userId}
  where ${where} and (${k.serviceAccountId} is null or ${owner.deletedAt} is null)`;

/**
 * One indexed query per request: the key by hash, its owner's name, with what each scope does now
 * (`api_key_access`: the grant capped by the owner's standing, see docs/keys-and-roles.md).
 * Not cached, so revocation, expiry and a removed membership bite on the next request.
 */
const findKeyByHash = statement<KeyRow, { tokenHash: string }>(keyWithAccess(sql`${k.tokenHash} = ${sql.placeholder('tokenHash')}`));

/** The same, by id: what a write's transaction reads again once it holds the credential lock. */
export const findKeyById = statement<KeyRow, { id: string }>(keyWithAccess(sql`${k.id} = ${sql.placeholder('id')}`));

/** By id, with its scope on one network only: a network operation's write re-reads just that. */
export const findKeyOnNetwork = statement<KeyRow, { id: string; networkId: string }>(
  keyWithAccess(sql`${k.id} = ${sql.placeholder('id')}`, sql`${a.networkId} = ${sql.placeholder('networkId')}`),
);

/** The key lookup as Postgres receives it: the benchmark's bare server runs this (scripts/bench/service-statements.ts). */
export const FIND_KEY_STATEMENT = findKeyByHash.rendered;

async function findKey(tokenHash: string): Promise<KeyRow | undefined> {
  const rows = await findKeyByHash(sqlClient(), { tokenHash });
  return rows[0];
}

export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}

/** Resolve the Authorization header to a principal, or throw 401 with a precise detail. */
export async function authenticate(authorization: string | undefined): Promise<Principal> {
  if (!authorization) throw unauthorized('Missing Authorization header. Send "Authorization: Bearer <API key>".');
  const token = bearerToken(authorization);
  if (!token) throw unauthorized('Malformed Authorization header. Send "Authorization: Bearer <API key>".');
  if (!API_KEY_PATTERN.test(token)) throw unauthorized('Malformed API key.');
  if (config().APP_ENV === 'test' && token.startsWith('sk_live_'))
    throw unauthorized('This is a live key (sk_live_…); this service runs in test mode (APP_ENV=test).');
  const row = await findKey(hashToken(token));
  if (!row) throw unauthorized('Invalid API key.');
  refuseUnusable(row);
  if (row.last_used_stale) touchLastUsed(row.id);
  return principalOf(row);
}

/** 401 for a key that no longer works: revoked, or expired. */
export function refuseUnusable(row: KeyRow): void {
  if (row.revoked) throw unauthorized('This API key has been revoked.');
  if (row.expired) throw unauthorized('This API key has expired.');
}

/**
 * The one rule of modes (docs/keys-and-roles.md#test-and-live): a key acts on networks of its own
 * mode; a live super_user key (the operator's) and a live console session (its person's networks,
 * for at most SESSION_LIFETIME_HOURS) act on test networks too. A `sk_test_` key never reaches a
 * live network.
 */
export function actsInMode(key: Pick<Principal, 'mode' | 'superUser' | 'session'>, networkMode: Mode): boolean {
  return key.mode === networkMode || (key.mode === 'live' && (key.superUser || key.session));
}

function principalOf(row: KeyRow): Principal {
  const key = { mode: row.mode, superUser: row.super_user, session: row.session };
  const acting = row.scopes.filter((s) => actsInMode(key, s.mode));
  return {
    keyId: row.id,
    keyName: row.name,
    superUser: row.super_user,
    userId: row.user_id,
    serviceAccountId: row.service_account_id,
    ownerName: row.owner_name,
    identifiesOwner: row.identifies_owner,
    session: row.session,
    mode: row.mode,
    scopes: new Map(acting.map((s) => [s.network_id, s.role])),
    otherModeScopes: new Set(row.scopes.filter((s) => !actsInMode(key, s.mode)).map((s) => s.network_id)),
    expiresAt: row.expires_at_ms,
  };
}

const LAST_USED_RESOLUTION_MS = 60_000;
const lastTouched = new Map<string, number>();

/**
 * `last_used_at` to the minute, without a write per request: at most one
 * update per key per minute per process, off the request's critical path.
 */
function touchLastUsed(keyId: string): void {
  const now = Date.now();
  const previous = lastTouched.get(keyId);
  if (previous && now - previous < LAST_USED_RESOLUTION_MS) return;
  lastTouched.set(keyId, now);
  if (lastTouched.size > 100_000) lastTouched.clear();
  database()
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))))
    .catch(() => lastTouched.delete(keyId));
}
