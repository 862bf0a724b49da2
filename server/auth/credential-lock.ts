import { sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { isInlineTransaction, isTransientConflict, postgresClientOf, type Database, type Queryable, type Tx } from '@/db/client';
import { apiKeys } from '@/db/schema';
import { statement } from '@/db/statement';
import { forbidden, unauthorized } from '@/server/errors';
import { findKeyById, findKeyOnNetwork, refuseUnusable, type KeyRow, type Principal } from './principal';
import { roleAtLeast } from '@/domain/roles';

/*
 * Credentials are linearizable (docs/SECURITY.md invariant 7, docs/keys-and-roles.md "Decided at commit").
 *
 * A request is authenticated once, before it runs; a write must still be allowed when it commits.
 * So every transaction a write opens on `ctx.db` begins here: it takes its caller's credential lock
 * (one per owner — the person or service account — migration 0010) shared, then reads the key again
 * in a statement that starts after the lock is held, and goes on only if the key still grants all
 * that the request was authenticated with. Every change that can take access away (revoking or
 * rotating a key, cutting or lowering a scope, removing or demoting a member, deleting a service
 * account) takes the same lock exclusively in a database trigger, so it waits for the owner's writes
 * in flight and answers after them, and a write that begins later waits for it and then sees it. A
 * key that expires while its write runs is refused before COMMIT.
 *
 * Nothing in a write can skip it: `boundToCredential` gives mutations a `ctx.db` whose transactions
 * begin here and which refuses a write outside a transaction.
 */

const holdShared = statement<{ held: string }, { owner: string }>(sql`select hold_credential(${sql.placeholder('owner')})::text as held`);
const holdExclusive = statement<{ held: string }, { owner: string }>(sql`select withdraw_credential(${sql.placeholder('owner')})::text as held`);

/** The shared hold and the key's re-reads as Postgres receives them: the benchmark's bare server runs these too. */
export const CREDENTIAL_STATEMENTS = {
  holdShared: holdShared.rendered,
  findKeyById: findKeyById.rendered,
  findKeyOnNetwork: findKeyOnNetwork.rendered,
};

/**
 * How a write holds its caller's credential lock. `exclusive` for operations that may take access
 * away from their own caller's owner (revoking or rotating one's own keys, changing one's own
 * membership): two of those by one owner then queue, where with the lock shared each would wait
 * for the other's to be released — a deadlock.
 */
export type CredentialLockMode = 'shared' | 'exclusive';

/** What a write re-checks: the key's whole access, or (a network operation) its role on `networkId`. */
export interface CredentialCheck {
  mode?: CredentialLockMode;
  networkId?: string | undefined;
}

/** The lock's name: a key's owner (every key has exactly one, `api_keys_one_owner`). */
const ownerOf = (p: Principal) => (p.userId ?? p.serviceAccountId)!;

/**
 * Take the caller's credential lock in `tx` and check that the key still grants what the gate
 * checked (`principal` as authenticated; only its role on `networkId` when given): 401 when it
 * has been revoked or has expired, 403 when that access has narrowed. The lock and the read are
 * sent together (one round trip); Postgres runs the read after the lock is granted.
 */
export async function holdCredential(tx: Tx, principal: Principal, { mode = 'shared', networkId }: CredentialCheck = {}): Promise<void> {
  const client = postgresClientOf(tx);
  const hold = mode === 'exclusive' ? holdExclusive : holdShared;
  const read = networkId ? findKeyOnNetwork(client, { id: principal.keyId, networkId }) : findKeyById(client, { id: principal.keyId });
  const [, rows] = await Promise.all([hold(client, { owner: ownerOf(principal) }), read]);
  assertStillGrants(principal, rows[0], networkId);
}

const holdOfKey = statement<{ held: string }, { keyId: string }>(sql`
  select hold_credential(coalesce(${apiKeys.userId}, ${apiKeys.serviceAccountId}))::text as held from ${apiKeys} where ${apiKeys.id} = ${sql.placeholder('keyId')}`);

/**
 * Take the credential locks of `owners` (people's or service accounts' ids) exclusively, before
 * locking or changing any of their rows: what a change that takes access away does first. The
 * withdrawal triggers take these locks anyway, and that is what makes every path safe; but a trigger
 * runs once its row is locked, so a change that waited there would hold a row (the key being
 * rotated, say) that the owner's write in flight needs. Taken first, in a fixed order, it does not.
 */
export async function withdrawCredentialsOf(tx: Queryable, owners: Iterable<string>): Promise<void> {
  const client = postgresClientOf(tx);
  for (const owner of [...new Set(owners)].sort()) await holdExclusive(client, { owner });
}

/** The owner of a key row: its person or its service account. */
export const keyOwner = (key: { userId: string | null; serviceAccountId: string | null }): string => (key.userId ?? key.serviceAccountId)!;

/** The credential lock of `owner` (a person's or service account's id), shared. */
export async function holdCredentialOf(tx: Queryable, owner: string): Promise<void> {
  await holdShared(postgresClientOf(tx), { owner });
}

/**
 * The credential lock of the owner of key `keyId`, shared, for a transaction that acts on the
 * authority that key lent (an invitation it sent): what `tx` reads next is that authority as it
 * stands until COMMIT.
 */
export async function holdCredentialOfKey(tx: Tx, keyId: string): Promise<void> {
  await holdOfKey(postgresClientOf(tx), { keyId });
}

/**
 * The key as read now still grants what the request was authorized with: its whole access as
 * authenticated, or its role on `onlyNetwork` (a super_user key needs only to be one still).
 */
export function assertStillGrants(principal: Principal, now: KeyRow | undefined, onlyNetwork?: string): void {
  if (!now) throw unauthorized('This API key has been revoked.');
  refuseUnusable(now);
  if (principal.superUser && !now.super_user) throw forbidden('This API key is no longer a super_user key; nothing was changed.');
  if (principal.superUser && onlyNetwork) return;
  const roles = new Map(now.scopes.map((s) => [s.network_id, s.role]));
  for (const [networkId, role] of principal.scopes) {
    if (onlyNetwork && networkId !== onlyNetwork) continue;
    const current = roles.get(networkId);
    if (!current || !roleAtLeast(current, role)) {
      throw forbidden(
        `This API key's access to network ${networkId} changed while the request ran (it ${current ? `now holds ${current}` : 'has no access there now'}); nothing was changed.`,
      );
    }
  }
}

/** Refused before COMMIT: the key expired while its write ran. */
export function assertNotExpired(principal: Principal, now = Date.now()): void {
  if (principal.expiresAt !== null && principal.expiresAt <= now) {
    throw unauthorized('This API key expired while the request ran; nothing was changed.');
  }
}

const WRITES = new Set<PropertyKey>(['insert', 'update', 'delete', 'execute']);

function refuseWriteOutsideTransaction(): never {
  throw new Error('A mutation writes only inside ctx.db.transaction(…), where its credential is checked at commit (server/auth/credential-lock.ts).');
}

/**
 * How many times a write's transaction runs when Postgres rolls it back to break a deadlock (or a
 * serialization failure). Owners' credential locks are taken in the order requests need them — the
 * caller's, then (in a trigger) the owner whose access a change takes away — so two writes that
 * each take away the other's access can deadlock; Postgres then rolls one back after
 * deadlock_timeout, having changed nothing. Run again, it sees the other's commit and answers as
 * it would have in that order (often 401 or 403), which is what a linearizable history needs; a
 * 409 to retry only when every run lost.
 */
export const TRANSIENT_CONFLICT_RUNS = 3;

async function runAgainOnTransientConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= TRANSIENT_CONFLICT_RUNS || !isTransientConflict(error)) throw error;
      await sleep(Math.round(10 * attempt * (0.5 + Math.random()))); // the winner commits meanwhile
    }
  }
}

/**
 * `db` for a mutation of `principal`: `transaction(fn)` runs `fn` after `holdCredential(check)` in
 * the new transaction, and checks expiry before COMMIT; a transaction Postgres rolled back to break
 * a deadlock runs again (TRANSIENT_CONFLICT_RUNS), unless `db` is itself inside a transaction,
 * which that rollback ended. `insert`, `update`, `delete` and `execute` outside a transaction throw
 * (a programming error, so every write is checked). Reads go to `db`.
 */
export function boundToCredential(db: Database, principal: Principal, check: CredentialCheck = {}): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return <T>(fn: (tx: Tx) => Promise<T>, config?: Parameters<Database['transaction']>[1]) => {
          const once = () =>
            target.transaction(async (tx) => {
              await holdCredential(tx, principal, check);
              const result = await fn(tx);
              assertNotExpired(principal);
              return result;
            }, config);
          return isInlineTransaction(target) ? once() : runAgainOnTransientConflict(once);
        };
      }
      if (WRITES.has(property)) return refuseWriteOutsideTransaction;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
