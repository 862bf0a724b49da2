import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { holdCredentialOf } from '@/server/auth/credential-lock';
import { newId } from '@/db/ids';
import { apiKeys, apiKeyScopes, networks } from '@/db/schema';
import { actsInMode, type Principal } from '@/server/auth/principal';
import { roleAtLeast, type Role } from '@/domain/roles';
import { generateApiKeyToken, hashToken, tokenStart } from '@/server/auth/tokens';
import { config } from '@/server/config';
import type { Mode } from '@/domain/modes';
import { badRequest, conflict, forbidden } from '@/server/errors';
import { reserveKeySlot } from '@/server/services/quotas';
import type { KeyOwner } from './find-keys';
import { assertWithinCreatorAccess, type Scope } from '@/server/auth/key-access';

export interface MintApiKeyInput {
  name: string;
  owner: KeyOwner;
  /**
   * Who creates the key: a calling key, whose access must cover it (rules 6 and 7), or the
   * platform itself — start-up, the CLI, an accepted invitation (whose sender was checked).
   */
  creator: Principal | 'platform';
  superUser?: boolean;
  scopes?: Scope[];
  expiresAt?: Date | null;
  /** Use this token instead of generating one (BOOTSTRAP_SUPERUSER_TOKEN, whose mode is APP_ENV's). */
  token?: string;
  /** The mode of a key without scopes (a rotation keeps the old key's); default APP_ENV's. */
  mode?: Mode;
  /** A console session's key (an email sign-in's): see `api_keys.session`. */
  session?: boolean;
  /**
   * What an `expiresAt` beyond the networks' key lifetime limit does: the caller chose it, so it is
   * refused (400, the default); or it was inherited (a rotation keeps the old key's), so it is cut
   * to the limit. No `expiresAt` gets the longest the limit allows.
   */
  beyondLifetime?: 'refuse' | 'shorten';
}

export function checkDistinctNetworks(scopes: Array<{ networkId: string }>): void {
  const seen = new Set<string>();
  for (const s of scopes) {
    if (seen.has(s.networkId)) {
      throw badRequest(`Network ${s.networkId} appears twice in scopes; give each network one role.`, [
        { path: 'scopes', message: 'Duplicate network_id.' },
      ]);
    }
    seen.add(s.networkId);
  }
}

/**
 * Every key is created here (a rotation's through its twin `mintReplacementKey`),
 * whoever asks (own keys, members', service accounts', invitations, rotation,
 * start-up), so the rules for a new key hold in one place:
 *  - rules 6 and 7: its grants are within the creator's access;
 *  - invariant 4, advertised = working: every scope works for the owner now
 *    (owner_role(), the definition principal resolution uses). The owner's
 *    credential lock is held first, so a removal, demotion or account deletion
 *    running at the same time either finishes before this check or waits for
 *    this key and then narrows it with the rest;
 *  - its mode and its end, from the networks it is scoped to (`keyTerms`): one mode (a test
 *    creator makes test keys only), within their key lifetime limits;
 *  - the owner's quota of active keys (QUOTA_API_KEYS_PER_OWNER), so keys
 *    cannot be minted without end (each would also bring its own rate-limit bucket);
 *    a rotation, which replaces a key, is not refused by it (`mintReplacementKey`).
 * Returns the token once; only its SHA-256 and a display start are stored.
 */
export async function mintApiKey({ tx, ...input }: { tx: Queryable } & MintApiKeyInput) {
  await assertKeyRules(tx, input);
  // The operator's own way back in (start-up, `npm run cli -- create-key`) is never refused.
  if (!(input.creator === 'platform' && input.superUser)) await reserveKeySlot({ tx, owner: input.owner });
  return insertKey(tx, input);
}

/**
 * A rotation's new key: every rule of `mintApiKey` but the owner's key quota, since it replaces a
 * key one for one (the old one is revoked, or revoked at the end of its grace, in the same
 * transaction) — at the quota, a rotation must still work.
 */
export async function mintReplacementKey({ tx, ...input }: { tx: Queryable } & MintApiKeyInput) {
  await assertKeyRules(tx, input);
  return insertKey(tx, input);
}

/**
 * A key the platform issues on its own authority, to the person it is for (a sign-in): every rule
 * of `mintApiKey` but the creator's — there is no creating key whose access could fall short.
 */
export async function mintPlatformKey({ tx, ...input }: { tx: Queryable } & Omit<MintApiKeyInput, 'creator' | 'superUser'>) {
  const issued = { ...input, creator: 'platform' as const };
  await assertOwnerHolds(tx, issued);
  await reserveKeySlot({ tx, owner: issued.owner });
  return insertKey(tx, issued);
}

async function assertKeyRules(tx: Queryable, input: MintApiKeyInput): Promise<void> {
  checkDistinctNetworks(input.scopes ?? []);
  if (input.creator !== 'platform') {
    assertWithinCreatorAccess(input.creator, { superUser: input.superUser ?? false, scopes: input.scopes ?? [] });
    await assertCreatorActsInMode(tx, input.creator, input);
  }
  await assertOwnerHolds(tx, input);
}

/**
 * A key made by a test key is a test key (403 otherwise): neither a key for a live network (a
 * `sk_test_` super_user's access has no scopes to bound it), nor a key without scopes in a live
 * service (which would be live: a rotation of the operator's super_user key, say). A live creator
 * acts in the new key's mode already: rule 6 keeps its new scopes within the networks it acts on.
 */
async function assertCreatorActsInMode(tx: Queryable, creator: Principal, input: MintApiKeyInput): Promise<void> {
  if (actsInMode(creator, 'live')) return;
  const scopes = input.scopes ?? [];
  if (scopes.length === 0) {
    const mode = input.mode ?? config().APP_ENV;
    if (mode === 'live') throw forbidden('A test key (sk_test_…) cannot make a live key: keys without scopes are live here.');
    return;
  }
  const [live] = await tx
    .select({ id: networks.id })
    .from(networks)
    .where(
      and(
        inArray(
          networks.id,
          scopes.map((s) => s.networkId),
        ),
        eq(networks.mode, 'live'),
      ),
    )
    .limit(1);
  if (live) throw forbidden(`A test key (sk_test_…) cannot make a key for a live network (${live.id}).`);
}

/** Advertised = working: every scope works for the owner now. */
async function assertOwnerHolds(tx: Queryable, input: MintApiKeyInput): Promise<void> {
  const scopes = input.scopes ?? [];
  if (scopes.length) await assertScopesWork(tx, input.owner, scopes);
}

/**
 * What the networks the new key is scoped to decide, read FOR SHARE (so a limit being changed now
 * is either in force already or waits for this key: the check holds at commit):
 *  - its mode (docs/keys-and-roles.md#test-and-live): theirs, and one mode only (400 otherwise); a
 *    console session, which covers all its person's networks, is live if any of them is. A key with
 *    no scope (a super_user's) takes the service's, APP_ENV, or the one it replaces (who may make
 *    it: `assertCreatorActsInMode`);
 *  - when it ends, within the shortest `max_key_lifetime_days` among them (G14): past it is a 400
 *    naming the limit (or, for an inherited end, the limit's end), and no end is that limit's.
 */
async function keyTerms(tx: Queryable, input: MintApiKeyInput, scopes: Scope[]): Promise<{ mode: Mode; expiresAt: Date | null }> {
  const wanted = input.expiresAt ?? null;
  if (scopes.length === 0) return { mode: input.mode ?? config().APP_ENV, expiresAt: wanted };
  // Every scope's network is locked, limited or not: a limit being set on one right now is waited for.
  const found = await tx
    .select({
      id: networks.id,
      name: networks.name,
      mode: networks.mode,
      days: networks.maxKeyLifetimeDays,
      latest: sql<Date | null>`now() + make_interval(days => ${networks.maxKeyLifetimeDays})`,
    })
    .from(networks)
    .where(
      inArray(
        networks.id,
        scopes.map((s) => s.networkId),
      ),
    )
    .orderBy(asc(networks.id))
    .for('share');
  const mode = keyMode(input, found);
  const strictest = found.filter((n) => n.days !== null).sort((x, y) => x.days! - y.days!)[0];
  if (!strictest) return { mode, expiresAt: wanted };
  const latest = new Date(strictest.latest!);
  if (wanted === null || wanted <= latest) return { mode, expiresAt: wanted ?? latest };
  if (input.beyondLifetime === 'shorten') return { mode, expiresAt: latest };
  throw badRequest(
    `Keys of network ${strictest.name} (${strictest.id}) live at most ${strictest.days} days (its max_key_lifetime_days): ` +
      `choose an expires_at no later than ${latest.toISOString()}.`,
    [{ path: 'expires_at', message: `At most ${strictest.days} days from now.` }],
  );
}

function keyMode(input: MintApiKeyInput, found: Array<{ id: string; mode: Mode }>): Mode {
  const live = found.filter((n) => n.mode === 'live');
  const mode: Mode = live.length > 0 ? 'live' : 'test';
  if (!input.session && live.length > 0 && live.length < found.length) {
    const test = found.find((n) => n.mode === 'test')!;
    throw badRequest(`A key works in one mode: network ${live[0]!.id} is live and ${test.id} is a test network. Make one key for each.`, [
      { path: 'scopes', message: 'Scopes of one mode only.' },
    ]);
  }
  return mode;
}

async function insertKey(tx: Queryable, input: MintApiKeyInput) {
  const scopes = input.scopes ?? [];
  const { mode, expiresAt } = await keyTerms(tx, input, scopes);
  const token = input.token ?? generateApiKeyToken(mode);
  const [key] = await tx
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      name: input.name,
      tokenHash: hashToken(token),
      start: tokenStart(token),
      environment: mode,
      superUser: input.superUser ?? false,
      userId: 'userId' in input.owner ? input.owner.userId : null,
      serviceAccountId: 'serviceAccountId' in input.owner ? input.owner.serviceAccountId : null,
      expiresAt,
      createdByKeyId: input.creator === 'platform' ? null : input.creator.keyId,
      identifiesOwner: identifiesOwner(input.creator, input.owner),
      session: input.session ?? false,
    })
    .returning();
  if (scopes.length) {
    await tx.insert(apiKeyScopes).values(scopes.map((s) => ({ keyId: key!.id, networkId: s.networkId, role: s.role })));
  }
  return { key: key!, token, scopes };
}

/**
 * Whether the new key proves who its owner is: when the platform issues it (start-up, the CLI,
 * an accepted invitation), or when one of the owner's own such keys makes it. A key made by
 * anyone else — an administrator minting or rotating for a member — proves only that
 * administrator's act (invariant 3), so it can accept no invitation for the owner.
 */
function identifiesOwner(creator: Principal | 'platform', owner: KeyOwner): boolean {
  if (creator === 'platform') return true;
  const sameOwner = 'userId' in owner ? creator.userId === owner.userId : creator.serviceAccountId === owner.serviceAccountId;
  return sameOwner && creator.identifiesOwner;
}

async function assertScopesWork(tx: Queryable, owner: KeyOwner, scopes: Scope[]): Promise<void> {
  const networkIds = scopes.map((s) => s.networkId);
  const userId = 'userId' in owner ? owner.userId : null;
  const serviceAccountId = 'serviceAccountId' in owner ? owner.serviceAccountId : null;
  // The owner's credential lock, shared (server/auth/credential-lock.ts): a removal, demotion or
  // account deletion of the owner running now has finished before the check below, or waits for
  // this key and then narrows it with the rest.
  await holdCredentialOf(tx, userId ?? serviceAccountId!);
  const standing = await tx
    .select({ networkId: networks.id, role: sql<Role | null>`owner_role(${userId}, ${serviceAccountId}, ${networks.id})` })
    .from(networks)
    .where(inArray(networks.id, networkIds));
  for (const scope of scopes) {
    const found = standing.find((s) => s.networkId === scope.networkId);
    if (!found)
      throw badRequest(`Network ${scope.networkId} does not exist.`, [{ path: 'scopes', message: `Unknown network_id ${scope.networkId}.` }]);
    if (found.role === null || !roleAtLeast(found.role, scope.role)) {
      throw conflict(
        `This key would not work as asked: its owner ${found.role ? `holds only ${found.role}` : 'has no access'} on network ${scope.networkId}, ` +
          `so a ${scope.role} scope there is refused.`,
      );
    }
  }
}
