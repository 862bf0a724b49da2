/**
 * The credentials model: a small in-memory picture of networks, persons,
 * memberships, service accounts, keys and invitations, and what
 * docs/keys-and-roles.md says each credential operation must answer and change.
 *
 * Pure (no HTTP): `expect…` functions say what the server must answer, `apply…`
 * functions record what an allowed operation changed, with the ids and tokens the
 * server handed out. commands.ts sends the requests; checks.ts compares.
 */
import type { softAuthenticator } from '@/tests/support/soft-authenticator';
import type { ReviewWorld } from './review-model';

export type Role = 'read_only' | 'administrator';
export const ROLES: readonly Role[] = ['read_only', 'administrator'];
const RANK: Record<Role, number> = { read_only: 0, administrator: 1 };

export function roleAtLeast(have: Role | undefined, need: Role): boolean {
  return have !== undefined && RANK[have] >= RANK[need];
}

function lowerRole(a: Role, b: Role): Role {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Network id → role. */
export type Scopes = Record<string, Role>;

/**
 * A network's mode, and a key's (`sk_test_` / `sk_live_`, its `environment`): rulebook "Test and
 * live"; the server's rule is `actsInMode` in server/auth/principal.ts.
 */
export type Mode = 'test' | 'live';

/** What a key can do now (GET /v1/me), or what a creator held when it made a key. */
export interface Access {
  superUser: boolean;
  scopes: Scopes;
  /**
   * The key's mode (undefined: an owner's standing, no key's): a super_user key reaches the
   * networks it acts in the mode of — a live one every network, a test one test networks only.
   */
  mode?: Mode;
}

export type Owner = { kind: 'person'; label: string } | { kind: 'serviceAccount'; label: string };

export interface Network {
  id: string;
  label: string;
  /** Fixed when it was created (`POST /v1/networks {"mode"}`). */
  mode: Mode;
  /** `max_key_lifetime_days` (rulebook "Creating keys", 4): null, no limit (test mode's default). */
  maxKeyLifetimeDays: number | null;
}

export interface Person {
  label: string;
  email: string;
  userId: string;
  /** The platform operator: holds super_user keys (the run's bootstrap key never goes away). */
  operator: boolean;
  /**
   * The address is proven (rulebook "Who owns an email address"): by an emailed sign-in link, or
   * in live mode by accepting with the token alone (the token reached only the mailbox); test
   * mode's acceptances prove nothing. The first proof ends the proof of every key made before it.
   */
  proven?: boolean;
  /** The person's device, once a session of theirs added a passkey (`POST /v1/me/passkeys`). */
  authenticator?: ReturnType<typeof softAuthenticator>;
}

export interface Membership {
  id: string;
  person: string;
  networkId: string;
  role: Role;
  status: 'active' | 'removed';
}

export interface ServiceAccount {
  id: string;
  label: string;
  networkId: string;
  role: Role;
  deleted: boolean;
}

export interface Key {
  id: string;
  token: string;
  /** Run-local name for traces: `alice#3`. */
  label: string;
  owner: Owner;
  superUser: boolean;
  /** Its mode, as the model predicted it when the key was made (`modeOfNewKey`); its token says it (`sk_<mode>_`). */
  mode: Mode;
  /**
   * The scopes the key holds now: demotion lowers them, removal takes one away for good
   * (rulebook "Removal is final"); a key left with none still identifies its owner.
   */
  granted: Scopes;
  revoked: boolean;
  /** A console session's key (an email sign-in's; rulebook "Signing in as a person"). */
  session?: boolean;
  /** The session ended (signed out, or the oldest when an 11th began): dead, but not revoked. */
  ended?: boolean;
  rotated: boolean;
  /** The key that replaced it by rotation: the invitations it sent live on in that key. */
  replacedBy?: string;
  /** What the key that created it (or the invitation's sender) held at that moment: the key may never exceed it. */
  creatorAccess: Access;
  /**
   * It proves who its owner is (rulebook "Invitations"): the owner got it themselves — on
   * accepting an invitation, or made (minted, rotated) by such a key of theirs. A key made by
   * someone else's key (an administrator's) proves nothing.
   */
  provesIdentity: boolean;
  origin: string;
  /** A rotation's successor: it keeps the old key's end (cut to its networks' limit), so its end is not the limit's. */
  endInherited?: boolean;
}

export interface Invitation {
  id: string;
  /** Live mode answers without it: read from the invitee's mailbox when first needed (`email_id` names the email). */
  token: string | undefined;
  emailId: string;
  label: string;
  networkId: string;
  email: string;
  role: Role;
  sender: Owner;
  /**
   * The key that sent it (rulebook "Invitations": they die with it); undefined for the world's
   * own, sent by the bootstrap key, which no run revokes.
   */
  senderKeyId: string | undefined;
  status: 'pending' | 'accepted' | 'revoked';
  /** The invitee was removed from the network while this invitation waited: the rulebook leaves its fate open. */
  contested: boolean;
}

export type PostKind =
  'mintOwnKey' | 'rotateOwnKey' | 'rotateNetworkKey' | 'mintMemberKey' | 'mintServiceAccountKey' | 'createServiceAccount' | 'invite' | 'accept';

/** A POST that answered 201, kept byte for byte so it can be replayed with its Idempotency-Key. */
export interface PostRecord {
  kind: PostKind;
  path: string;
  body: string;
  authorization: string;
  idempotencyKey: string;
  /** The calling key; undefined for an acceptance authenticated by the invitation token alone. */
  actorKeyId: string | undefined;
  networkId: string | undefined;
  /** The API key whose token the answer carries. */
  createdKeyId: string | undefined;
  /** The id of what was created (key, service account, invitation), to recognise the replayed answer. */
  answerId: string;
  description: string;
}

/**
 * Rules the model can be told to relax (CREDENTIALS_MODEL_RELAX), to look past a hole
 * already found at the ones behind it. Each names the rule it stops enforcing.
 */
export const RELAXATIONS = {
  'token-accept': 'an existing account may accept an invitation with the token alone (the rule: 403)',
  'network-lists': 'the network key lists are not checked after every step',
  'working-scopes':
    'the scopes views and GET /v1/me show are not compared with the model (tokens must still answer, 401 once revoked, within their creator’s access)',
  'scopeless-mode':
    'a key with no scope (a super_user’s, or one left with none) may be minted or rotated by a key of the other mode: it takes APP_ENV’s mode, whoever makes it (the rule: 403)',
} as const;
export type Relaxation = keyof typeof RELAXATIONS;

/** The relaxations CREDENTIALS_MODEL_RELAX names (comma-separated), for both model-based tests. */
export function relaxations(names = process.env.CREDENTIALS_MODEL_RELAX ?? ''): ReadonlySet<Relaxation> {
  const asked = names
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = asked.filter((n) => !(n in RELAXATIONS));
  if (unknown.length) throw new Error(`CREDENTIALS_MODEL_RELAX: unknown ${unknown.join(', ')}; known: ${Object.keys(RELAXATIONS).join(', ')}`);
  return new Set(asked as Relaxation[]);
}

export interface Model {
  relax: ReadonlySet<Relaxation>;
  /** The service's APP_ENV: the mode of a key with no scope (a super_user's). */
  appMode: Mode;
  networks: Network[];
  persons: Person[];
  memberships: Membership[];
  serviceAccounts: ServiceAccount[];
  keys: Key[];
  invitations: Invitation[];
  posts: PostRecord[];
  tag: string;
  counter: number;
  /**
   * Voice consents, offers, creatives and review links (review-model.ts): made on the first step of
   * the consent and review operations that needs them, so the other suites never pay for them.
   */
  review?: ReviewWorld;
}

export function emptyModel(tag: string, relax: ReadonlySet<Relaxation> = new Set(), appMode: Mode = 'test'): Model {
  return { relax, appMode, networks: [], persons: [], memberships: [], serviceAccounts: [], keys: [], invitations: [], posts: [], tag, counter: 0 };
}

// ---------------------------------------------------------------------------
// Looking things up
// ---------------------------------------------------------------------------

export function networkLabel(model: Model, networkId: string): string {
  return model.networks.find((n) => n.id === networkId)?.label ?? networkId;
}

export function person(model: Model, label: string): Person {
  return model.persons.find((p) => p.label === label)!;
}

export function serviceAccount(model: Model, label: string): ServiceAccount {
  return model.serviceAccounts.find((s) => s.label === label)!;
}

export function keyById(model: Model, id: string): Key | undefined {
  return model.keys.find((k) => k.id === id);
}

export function personByEmail(model: Model, email: string): Person | undefined {
  return model.persons.find((p) => p.email === email);
}

export function activeMembership(model: Model, personLabel: string, networkId: string): Membership | undefined {
  return model.memberships.find((m) => m.person === personLabel && m.networkId === networkId && m.status === 'active');
}

export function ownerLabel(owner: Owner): string {
  return owner.label;
}

export function sameOwner(a: Owner, b: Owner): boolean {
  return a.kind === b.kind && a.label === b.label;
}

export function isOperatorKey(model: Model, key: Key): boolean {
  return key.owner.kind === 'person' && person(model, key.owner.label).operator;
}

export function ownerId(model: Model, owner: Owner): string {
  return owner.kind === 'person' ? person(model, owner.label).userId : serviceAccount(model, owner.label).id;
}

// ---------------------------------------------------------------------------
// Access (rulebook: "What a key can do: its access")
// ---------------------------------------------------------------------------

/** The owner's standing in a network: what caps every scope of the owner's keys there. */
export function standing(model: Model, owner: Owner, networkId: string): Role | undefined {
  if (owner.kind === 'serviceAccount') {
    const sa = serviceAccount(model, owner.label);
    return sa.networkId === networkId && !sa.deleted ? sa.role : undefined;
  }
  const membership = activeMembership(model, owner.label, networkId);
  if (membership) return membership.role;
  // The operator's scoped keys work while it holds an active super_user key; the run's
  // bootstrap key is one it never loses.
  return person(model, owner.label).operator ? 'administrator' : undefined;
}

/** Everything an owner holds now (an invitation's sender, as the creator of the key its acceptance makes). */
export function ownerAccess(model: Model, owner: Owner): Access {
  if (owner.kind === 'person' && person(model, owner.label).operator) return { superUser: true, scopes: {}, mode: model.appMode };
  const scopes: Scopes = {};
  for (const network of model.networks) {
    const role = standing(model, owner, network.id);
    if (role) scopes[network.id] = role;
  }
  return { superUser: false, scopes };
}

export function isLive(model: Model, key: Key): boolean {
  return !key.ended && !withdrawn(model, key);
}

/** Revoked, or its service account deleted: what ends the invitations a key sent (a session's end does not). */
function withdrawn(model: Model, key: Key): boolean {
  if (key.revoked) return true;
  return key.owner.kind === 'serviceAccount' && serviceAccount(model, key.owner.label).deleted;
}

// ---------------------------------------------------------------------------
// Modes (rulebook "Test and live"; server/auth/principal.ts `actsInMode`)
// ---------------------------------------------------------------------------

export function networkMode(model: Model, networkId: string): Mode {
  return model.networks.find((n) => n.id === networkId)?.mode ?? model.appMode;
}

/**
 * A key acts on a network of its own mode; a live super_user key and a live console session act
 * on test networks too. A test key never acts on a live network.
 */
export function actsInMode(key: { mode: Mode; superUser: boolean; session?: boolean | undefined }, mode: Mode): boolean {
  return key.mode === mode || (key.mode === 'live' && (key.superUser || key.session === true));
}

/**
 * The mode a new key scoped to `granted` gets: its networks' mode — one only, except for a console
 * session, which covers all its person's networks and is live if any of them is — or, with no
 * scope, the service's (APP_ENV). Undefined: the scopes span both modes, which no other key may (400).
 */
export function modeOfNewKey(model: Model, granted: Scopes, session = false): Mode | undefined {
  const modes = new Set(Object.keys(granted).map((networkId) => networkMode(model, networkId)));
  if (modes.size === 0) return model.appMode;
  if (modes.size === 1) return [...modes][0];
  return session ? 'live' : undefined;
}

/** The token's mode (its prefix), as the server wrote it. */
export function tokenMode(token: string): Mode | undefined {
  return token.startsWith('sk_live_') ? 'live' : token.startsWith('sk_test_') ? 'test' : undefined;
}

/**
 * What a key's views show (GET /v1/apikeys/{id}, the key lists, a creation's answer): each granted
 * scope capped by its owner's standing — whatever its network's mode.
 */
export function shownAccess(model: Model, key: Key): Access {
  const scopes: Scopes = {};
  for (const [networkId, granted] of Object.entries(key.granted)) {
    const role = standing(model, key.owner, networkId);
    if (role) scopes[networkId] = lowerRole(granted, role);
  }
  return { superUser: key.superUser, scopes, mode: key.mode };
}

/**
 * What a key can do now (GET /v1/me, every gate): its shown scopes on the networks it acts in the
 * mode of. A scope on a network of the other mode (a key made before modes were) is dropped.
 */
export function accessOf(model: Model, key: Key): Access {
  const shown = shownAccess(model, key);
  for (const networkId of Object.keys(shown.scopes)) if (!actsInMode(key, networkMode(model, networkId))) delete shown.scopes[networkId];
  return shown;
}

/**
 * The access administers network n: a super_user key acting in n's mode (an owner's standing, of
 * no mode, reaches every network), or an administrator scope on n.
 */
export function isAdministrator(model: Model, access: Access, networkId: string): boolean {
  if (access.superUser && (!access.mode || actsInMode({ mode: access.mode, superUser: true }, networkMode(model, networkId)))) return true;
  return access.scopes[networkId] === 'administrator';
}

/**
 * The calling key covers the target key: the caller acts in the target's mode (a test key covers
 * test keys only, a test super_user's too), and it is super_user, or the target is not, holds no
 * scope beyond the caller's access, and proves its owner's identity only if the caller does too.
 */
export function covers(model: Model, caller: Key, target: Key): boolean {
  if (!actsInMode(caller, target.mode)) return false;
  const access = accessOf(model, caller);
  if (access.superUser) return true;
  if (target.superUser || (target.provesIdentity && !caller.provesIdentity)) return false;
  return Object.entries(target.granted).every(([networkId, role]) => roleAtLeast(access.scopes[networkId], role));
}

/** `inner` is within `outer`: what a created key may hold compared with its creator. */
export function within(inner: Access, outer: Access): boolean {
  if (outer.superUser) return true;
  if (inner.superUser) return false;
  return Object.entries(inner.scopes).every(([networkId, role]) => roleAtLeast(outer.scopes[networkId], role));
}

/** Rulebook "Network key administration": scoped to n, not super_user, of an active member of n or a service account of n. */
export function isNetworkKey(model: Model, key: Key, networkId: string): boolean {
  if (key.superUser || !(networkId in key.granted)) return false;
  if (key.owner.kind === 'serviceAccount') return serviceAccount(model, key.owner.label).networkId === networkId;
  return activeMembership(model, key.owner.label, networkId) !== undefined;
}

export function describeAccess(model: Model, access: Access): string {
  if (access.superUser) return access.mode === 'test' ? 'test super_user' : 'super_user';
  const parts = Object.entries(access.scopes)
    .map(([networkId, role]) => `${role}@${networkLabel(model, networkId)}`)
    .sort();
  return parts.length ? parts.join(',') : 'no scopes';
}

/** `alice#3[read_only@B]`; a test key's with its mode: `erin#9[test: read_only@C]`. */
export function describeKey(model: Model, key: Key): string {
  const mode = key.mode === 'test' && !key.superUser ? 'test: ' : '';
  return `${key.label}[${isLive(model, key) ? `${mode}${describeAccess(model, accessOf(model, key))}` : 'revoked'}]`;
}

// ---------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------

export type Expectation =
  | { outcome: 'allowed'; why: string }
  /**
   * `statuses` empty: any 4xx (the rulebook names none). `field`: the refusal names it
   * (`errors[0].path`); `detail`: its `detail` says why in these words. `rule`: a mode rule's
   * name, to count the refusals it made.
   */
  | { outcome: 'refused'; statuses: readonly number[]; why: string; field?: string; detail?: RegExp; rule?: string }
  /** The rulebook leaves it open: 2xx, or one of `statuses`. */
  | { outcome: 'either'; statuses: readonly number[]; why: string };

export const allowed = (why = 'allowed'): Expectation => ({ outcome: 'allowed', why });
export const refused = (why: string, ...statuses: number[]): Expectation => ({ outcome: 'refused', statuses, why });
/** Refused with `status` by a mode rule, saying so in its detail when `detail` is given (and naming `field`). */
const refusedByRule = (rule: string, why: string, status: number, said: { detail?: RegExp; field?: string } = {}): Expectation => ({
  outcome: 'refused',
  statuses: [status],
  why,
  rule,
  ...said,
});
const either = (why: string, ...statuses: number[]): Expectation => ({ outcome: 'either', statuses, why });

/**
 * The 403 of a key on a network of the other mode it is scoped to, or of a test super_user key on
 * a live network (server/trpc.ts `networkProcedure`): its detail says which mode is which.
 */
export function otherMode(model: Model, actor: Key, networkId: string): Expectation | undefined {
  const mode = networkMode(model, networkId);
  if (actsInMode(actor, mode)) return undefined;
  const scoped = actor.superUser || (networkId in actor.granted && standing(model, actor.owner, networkId) !== undefined);
  if (!scoped) return undefined;
  const why = `${networkLabel(model, networkId)} is a ${mode} network and the calling key is a ${actor.mode} key`;
  const detail = mode === 'live' ? /live and this is a test key/ : /test network and this key is live/;
  return refusedByRule(`a ${actor.mode} key on a ${mode} network`, why, 403, { detail });
}

/** 401 for a dead key, 403 without the administrator role on the path's network (saying so when it is of the other mode). */
export function gate(model: Model, actor: Key, networkId?: string): Expectation | undefined {
  if (!isLive(model, actor)) return refused('the calling key is revoked', 401);
  if (networkId !== undefined && !isAdministrator(model, accessOf(model, actor), networkId)) {
    return otherMode(model, actor, networkId) ?? refused(`the calling key does not administer ${networkLabel(model, networkId)}`, 403);
  }
  return undefined;
}

/** What a key-creating operation must produce when allowed. */
export interface NewKeySpec {
  owner: Owner;
  superUser: boolean;
  granted: Scopes;
  /** Its predicted mode (`modeOfNewKey`; APP_ENV's where its scopes span both modes, and it is refused). */
  mode: Mode;
  /** A console session's key. */
  session?: boolean;
}

/** A new key's spec, with the mode its scopes give it. */
export function newKeySpec(model: Model, owner: Owner, superUser: boolean, granted: Scopes, session = false): NewKeySpec {
  const mode = modeOfNewKey(model, granted, session) ?? model.appMode;
  return session ? { owner, superUser, granted, mode, session } : { owner, superUser, granted, mode };
}

/**
 * A new key's mode rules (server/services/keys/mint-api-key.ts), checked after the others: its
 * scopes are of one mode (a 400 naming `scopes`; a session alone may mix), and the key that creates
 * it acts in that mode (403: a test key makes no live key — nor one with no scope, which is live in
 * a live deployment).
 */
function modeRules(model: Model, creator: Key, spec: NewKeySpec): Expectation | undefined {
  const modes = new Set(Object.keys(spec.granted).map((networkId) => networkMode(model, networkId)));
  const mixed = modeOfNewKey(model, spec.granted, spec.session) === undefined;
  const scopeless = modes.size === 0 && model.relax.has('scopeless-mode');
  // Mixed scopes: the creator must act in both modes (a live super_user key, a live session).
  const foreign = [...(modes.size ? modes : [spec.mode])].find((mode) => !actsInMode(creator, mode));
  const made = modes.size ? `a key for a ${foreign} network` : `a ${foreign} key (with no scope, a key has APP_ENV’s mode)`;
  const byCreator = foreign && !scopeless ? `a ${creator.mode} key cannot make ${made}` : undefined;
  const bothModes = 'the scopes span a live and a test network: a key works in one mode';
  // Which of the two the server says first when both apply, the rulebook does not say.
  if (mixed && byCreator) return refused(`${bothModes}; ${byCreator}`, 400, 403);
  if (mixed) return refusedByRule('scopes of both modes', bothModes, 400, { detail: /one mode/, field: 'scopes' });
  if (byCreator) return refusedByRule(`a ${creator.mode} key making a ${foreign} key`, byCreator, 403);
  return undefined;
}

export function expectMintOwnKey(
  model: Model,
  actor: Key,
  request: { scopes: Scopes | undefined; superUser: boolean },
): { expectation: Expectation; spec: NewKeySpec } {
  const access = accessOf(model, actor);
  const granted = request.scopes ?? { ...access.scopes };
  const spec = newKeySpec(model, actor.owner, request.superUser, granted);
  const denied = gate(model, actor);
  if (denied) return { expectation: denied, spec };
  if (request.superUser && !access.superUser) return { expectation: refused('rule 7: only a super_user key creates a super_user key', 403), spec };
  if (!within({ superUser: false, scopes: granted }, access)) {
    return { expectation: refused('rule 6: the scopes exceed the calling key’s access', 403), spec };
  }
  for (const [networkId, role] of Object.entries(granted)) {
    if (!roleAtLeast(standing(model, actor.owner, networkId), role)) {
      return { expectation: refused(`the scope on ${networkLabel(model, networkId)} would not work for the owner`, 409), spec };
    }
  }
  return { expectation: modeRules(model, actor, spec) ?? allowed(), spec };
}

/** Reading, revoking or rotating one of your own keys: only a key the calling key covers exists for it. */
function ownKeyReachable(model: Model, actor: Key, target: Key): Expectation | undefined {
  const denied = gate(model, actor);
  if (denied) return denied;
  if (!sameOwner(actor.owner, target.owner)) return refused('the key belongs to someone else', 404);
  if (!covers(model, actor, target)) return refused('the calling key does not cover this key', 404);
  return undefined;
}

export function expectReadOwnKey(model: Model, actor: Key, target: Key): Expectation {
  return ownKeyReachable(model, actor, target) ?? allowed();
}

export function expectRevokeOwnKey(model: Model, actor: Key, target: Key): Expectation {
  return ownKeyReachable(model, actor, target) ?? allowed();
}

/** The replacement is minted like any key, with the old key's scopes: and so their mode (a 400 if they span both). */
function rotatable(model: Model, actor: Key, target: Key): Expectation | undefined {
  if (target.revoked || target.rotated) return refused('the key is revoked or already rotated', 409);
  if (target.session) return refused('a session’s key is not rotated: it ends', 409);
  for (const [networkId, role] of Object.entries(target.granted)) {
    if (!roleAtLeast(standing(model, target.owner, networkId), role)) {
      return refused(`the replacement’s scope on ${networkLabel(model, networkId)} would not work`, 409);
    }
  }
  return modeRules(model, actor, rotationSpec(model, target));
}

export function expectRotateOwnKey(model: Model, actor: Key, target: Key): Expectation {
  return ownKeyReachable(model, actor, target) ?? rotatable(model, actor, target) ?? allowed();
}

/** Changing a network's key lifetime limit (PATCH /v1/networks/{n}): its administrators, and the operator. */
export function expectSetKeyLifetime(model: Model, actor: Key, networkId: string): Expectation {
  return gate(model, actor, networkId) ?? allowed();
}

/**
 * The longest, in days, a key scoped to `granted`'s networks may live now: the strictest of their
 * limits (rulebook "Creating keys", 4); undefined when none has one.
 */
export function keyLifetimeBound(model: Model, granted: Scopes): number | undefined {
  const limits = Object.keys(granted)
    .map((networkId) => model.networks.find((n) => n.id === networkId)?.maxKeyLifetimeDays)
    .filter((days): days is number => typeof days === 'number');
  return limits.length ? Math.min(...limits) : undefined;
}

export function expectNetworkRevoke(model: Model, actor: Key, networkId: string, target: Key): Expectation {
  const denied = gate(model, actor, networkId);
  if (denied) return denied;
  if (!isNetworkKey(model, target, networkId)) return refused(`not a key of ${networkLabel(model, networkId)}`, 404);
  // Whether a revoked key is still "a key of the network" is not said: 200 (no change) or 404.
  if (!isLive(model, target)) return either('the key is already revoked', 404);
  return allowed();
}

export function expectNetworkRotate(model: Model, actor: Key, networkId: string, target: Key): Expectation {
  const denied = gate(model, actor, networkId);
  if (denied) return denied;
  if (!isNetworkKey(model, target, networkId)) return refused(`not a key of ${networkLabel(model, networkId)}`, 404);
  const elsewhere = Object.keys(target.granted).some((n) => n !== networkId);
  // Whether a revoked key is still "a key of the network" is not said (404 or 409), nor
  // which of 403 and 409 comes first when both apply.
  if (!isLive(model, target)) return refused('the key is revoked', ...(elsewhere ? [403, 404, 409] : [404, 409]));
  if (elsewhere) return refused('the key also reaches other networks: its owner rotates it', 403);
  return rotatable(model, actor, target) ?? allowed();
}

/**
 * An administrator mints a key for someone who belongs to one network (a member, a service
 * account): scoped to that network, at their role unless `role` asks less. The checks, in the
 * server's order: the caller's gate, their network (404), still there (409), the role within theirs.
 */
export function expectMintKeyFor(
  model: Model,
  actor: Key,
  networkId: string,
  holder: Membership | ServiceAccount,
  role: Role | undefined,
): { expectation: Expectation; spec: NewKeySpec } {
  const member = 'person' in holder;
  const wanted = role ?? holder.role;
  const owner: Owner = member ? { kind: 'person', label: holder.person } : { kind: 'serviceAccount', label: holder.label };
  // Scoped to the network: of its mode, which the caller, administering it, acts in.
  const spec = newKeySpec(model, owner, false, { [networkId]: wanted });
  const denied = gate(model, actor, networkId);
  if (denied) return { expectation: denied, spec };
  if (holder.networkId !== networkId)
    return { expectation: refused(`${member ? 'the member' : 'the service account'} is not in this network`, 404), spec };
  const gone = member ? holder.status !== 'active' && 'the member was removed' : holder.deleted && 'the service account is deleted';
  if (gone) return { expectation: refused(gone, 409), spec };
  // "at most at the member's role": the rulebook names no status for asking more.
  if (!roleAtLeast(holder.role, wanted)) return { expectation: refused(`the role exceeds the ${member ? 'member' : 'account'}’s role`), spec };
  return { expectation: allowed(), spec };
}

/** What needs the administrator role on a network and changes nothing of the model (listing its keys, writing its resources). */
export function expectAdministers(model: Model, actor: Key, networkId: string): Expectation {
  return gate(model, actor, networkId) ?? allowed();
}

export function expectCreateServiceAccount(model: Model, actor: Key, networkId: string): Expectation {
  return gate(model, actor, networkId) ?? allowed();
}

export function expectDeleteServiceAccount(model: Model, actor: Key, networkId: string, sa: ServiceAccount): Expectation {
  const denied = gate(model, actor, networkId);
  if (denied) return denied;
  if (sa.networkId !== networkId) return refused('the service account is not in this network', 404);
  if (sa.deleted) return refused('the service account is already deleted', 409);
  return allowed();
}

export function expectInvite(model: Model, actor: Key, networkId: string, email: string): Expectation {
  const denied = gate(model, actor, networkId);
  if (denied) return denied;
  const invitee = personByEmail(model, email);
  if (invitee && activeMembership(model, invitee.label, networkId)) return refused('the invitee is already an active member', 409);
  return allowed();
}

/**
 * The invitation's sender still administers its network, and so does the key that sent it or
 * the key that replaced it by rotation (rulebook "Invitations"; invariant 8).
 */
function senderAdministers(model: Model, invitation: Invitation): boolean {
  if (standing(model, invitation.sender, invitation.networkId) !== 'administrator') return false;
  if (invitation.senderKeyId === undefined) return true;
  for (let key = keyById(model, invitation.senderKeyId); key; key = key.replacedBy ? keyById(model, key.replacedBy) : undefined) {
    // A session that ended (signed out) still stands behind what it sent; a revoked one does not.
    const stands = key.session ? !withdrawn(model, key) : isLive(model, key);
    if (stands && isAdministrator(model, accessOf(model, key), invitation.networkId)) return true;
  }
  return false;
}

/** Accepting: with the invitation token alone (`via` undefined) or with an API key. */
export function expectAccept(model: Model, invitation: Invitation, via: Key | undefined): Expectation {
  if (via && !isLive(model, via)) return refused('the key presented is revoked', 401);
  const conflicts: string[] = [];
  const forbidden: string[] = [];
  if (invitation.status !== 'pending') conflicts.push(`the invitation is ${invitation.status}`);
  else if (!senderAdministers(model, invitation)) conflicts.push('its sender no longer administers the network');
  const invitee = personByEmail(model, invitation.email);
  if (!via && invitee && !model.relax.has('token-accept')) forbidden.push('an account with this email exists: it must accept with one of its keys');
  if (via && !(invitee && via.owner.kind === 'person' && via.owner.label === invitee.label)) {
    forbidden.push('the key presented is not the invitee’s');
  } else if (via && !via.provesIdentity) {
    forbidden.push('the key presented was made for the invitee by someone else: it does not prove who they are');
  }
  if (invitee && activeMembership(model, invitee.label, invitation.networkId)) conflicts.push('the invitee is already an active member');
  if (forbidden.length && conflicts.length) return refused([...forbidden, ...conflicts].join('; '), 403, 409);
  if (forbidden.length) return refused(forbidden.join('; '), 403);
  if (conflicts.length) return refused(conflicts.join('; '), 409);
  if (invitation.contested) return either('the invitee was removed after this invitation was sent', 409);
  return allowed();
}

function lastAdministrator(model: Model, membership: Membership): boolean {
  if (membership.status !== 'active' || membership.role !== 'administrator') return false;
  return !model.memberships.some(
    (m) => m !== membership && m.networkId === membership.networkId && m.status === 'active' && m.role === 'administrator',
  );
}

export function expectChangeRole(model: Model, actor: Key, networkId: string, membership: Membership, role: Role): Expectation {
  const denied = gate(model, actor, networkId);
  if (denied) return denied;
  if (membership.networkId !== networkId) return refused('the member is not in this network', 404);
  if (membership.status !== 'active') return refused('the member was removed', 409);
  if (membership.role === role) return allowed('no change');
  if (role === 'read_only' && lastAdministrator(model, membership)) return refused('the last administrator cannot be demoted', 409);
  return allowed();
}

export function expectRemoveMember(model: Model, actor: Key, networkId: string, membership: Membership): Expectation {
  const denied = gate(model, actor, networkId);
  if (denied) return denied;
  if (membership.networkId !== networkId) return refused('the member is not in this network', 404);
  if (membership.status !== 'active') return allowed('already removed');
  if (lastAdministrator(model, membership)) return refused('the last administrator cannot be removed', 409);
  return allowed();
}

/** Signing out: only a live session's key, which then ends (rulebook "Signing in as a person"). */
export function expectSignOut(model: Model, actor: Key): Expectation {
  return gate(model, actor) ?? (actor.session ? allowed() : refused('only a session signs out (other keys are revoked)', 400));
}

/** Adding a passkey: only a live console session's key (rulebook "Signing in as a person", passkeys). */
export function expectAddPasskey(model: Model, actor: Key): Expectation {
  return gate(model, actor) ?? (actor.session ? allowed() : refused('only a console session adds passkeys', 403));
}

/** Rulebook "Replays are requests": the stored answer only to a caller who may make the request now. */
export function expectReplay(model: Model, post: PostRecord): Expectation {
  const actor = post.actorKeyId ? keyById(model, post.actorKeyId) : undefined;
  if (post.kind === 'accept') {
    if (actor && !isLive(model, actor)) return refused('the key presented is revoked', 401);
    return either('the rulebook does not say who may replay an acceptance', 401, 403, 409);
  }
  const denied = gate(model, actor!, post.networkId);
  if (denied) return denied;
  const created = post.createdKeyId ? keyById(model, post.createdKeyId) : undefined;
  if (created && !covers(model, actor!, created)) {
    return refused(`the caller no longer covers ${created.label}, whose token the stored answer carries`, 403, 404);
  }
  return allowed();
}

// ---------------------------------------------------------------------------
// Effects of allowed operations
// ---------------------------------------------------------------------------

export function nextLabel(model: Model, prefix: string): string {
  model.counter += 1;
  return `${prefix}#${model.counter}`;
}

/** How a key came to be: its creator's access then, and whether it proves its owner's identity. */
export interface Making {
  creatorAccess: Access;
  provesIdentity: boolean;
}

/** A key made by another key, for `owner`: it proves identity only if made by such a key of the same owner. */
export function madeBy(model: Model, creator: Key, owner: Owner): Making {
  return { creatorAccess: accessOf(model, creator), provesIdentity: creator.provesIdentity && sameOwner(creator.owner, owner) };
}

export function addKey(model: Model, input: { id: string; token: string; spec: NewKeySpec; made: Making; origin: string }): Key {
  const key: Key = {
    id: input.id,
    token: input.token,
    label: nextLabel(model, ownerLabel(input.spec.owner)),
    owner: input.spec.owner,
    superUser: input.spec.superUser,
    mode: input.spec.mode,
    ...(input.spec.session ? { session: true } : {}),
    granted: { ...input.spec.granted },
    revoked: false,
    rotated: false,
    creatorAccess: input.made.creatorAccess,
    provesIdentity: input.made.provesIdentity,
    origin: input.origin,
  };
  model.keys.push(key);
  return key;
}

/**
 * Rotation with no grace period: the old key stops now, the new one has its owner, name and scopes
 * (and so their mode) — or, left with no scope (a super_user's, or a removed member's key), the old
 * key's mode: a rotation keeps it (`mode` of mintApiKey's input).
 */
export function rotationSpec(model: Model, target: Key): NewKeySpec {
  const spec = newKeySpec(model, target.owner, target.superUser, { ...target.granted });
  return Object.keys(target.granted).length ? spec : { ...spec, mode: target.mode };
}

/** Rotated into `successor`: within a grace period the old key works on, but cannot be rotated again. */
export function applyRotation(target: Key, successor: string, grace = false): void {
  if (!grace) target.revoked = true;
  target.rotated = true;
  target.replacedBy = successor;
}

/** Revoked: the pending invitations it (or a key it replaced) sent to its networks are revoked with it. */
export function applyRevoke(model: Model, target: Key): void {
  target.revoked = true;
  for (const networkId of Object.keys(target.granted)) revokeInvitationsSentByKey(model, target, networkId);
}

/** A key scoped to n only is revoked; a key that also reaches other networks loses only n. */
export function applyNetworkRevoke(model: Model, target: Key, networkId: string): void {
  if (Object.keys(target.granted).every((n) => n === networkId)) {
    applyRevoke(model, target);
    return;
  }
  delete target.granted[networkId];
  revokeInvitationsSentByKey(model, target, networkId);
}

/** The key and the keys it replaced by rotation, back to the first. */
function lineage(model: Model, key: Key): Set<string> {
  const ids = new Set([key.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const k of model.keys) {
      if (k.replacedBy && ids.has(k.replacedBy) && !ids.has(k.id)) {
        ids.add(k.id);
        grew = true;
      }
    }
  }
  return ids;
}

function revokeInvitationsSentByKey(model: Model, key: Key, networkId: string): void {
  const sentBy = lineage(model, key);
  for (const invitation of model.invitations) {
    if (
      invitation.status === 'pending' &&
      invitation.networkId === networkId &&
      invitation.senderKeyId !== undefined &&
      sentBy.has(invitation.senderKeyId)
    ) {
      invitation.status = 'revoked';
    }
  }
}

function revokeInvitationsSentBy(model: Model, sender: Owner, networkId: string | undefined): void {
  for (const invitation of model.invitations) {
    if (invitation.status === 'pending' && sameOwner(invitation.sender, sender) && (networkId === undefined || invitation.networkId === networkId)) {
      invitation.status = 'revoked';
    }
  }
}

export function applyDeleteServiceAccount(model: Model, sa: ServiceAccount): void {
  sa.deleted = true;
  for (const key of model.keys) if (key.owner.kind === 'serviceAccount' && key.owner.label === sa.label) key.revoked = true;
  revokeInvitationsSentBy(model, { kind: 'serviceAccount', label: sa.label }, undefined);
}

export function applyChangeRole(model: Model, membership: Membership, role: Role): void {
  if (membership.role === role) return;
  membership.role = role;
  if (role !== 'read_only') return;
  const owner: Owner = { kind: 'person', label: membership.person };
  for (const key of model.keys) {
    if (sameOwner(key.owner, owner) && key.granted[membership.networkId] === 'administrator') key.granted[membership.networkId] = 'read_only';
  }
  revokeInvitationsSentBy(model, owner, membership.networkId);
}

export function applyRemoveMember(model: Model, membership: Membership): void {
  if (membership.status === 'removed') return;
  membership.status = 'removed';
  const owner: Owner = { kind: 'person', label: membership.person };
  for (const key of model.keys) if (sameOwner(key.owner, owner)) delete key.granted[membership.networkId];
  revokeInvitationsSentBy(model, owner, membership.networkId);
  const email = person(model, membership.person).email;
  for (const invitation of model.invitations) {
    if (invitation.status === 'pending' && invitation.email === email && invitation.networkId === membership.networkId) invitation.contested = true;
  }
}

/** An accepted invitation: the person (new or existing), an active membership with the invited role, a fresh key. */
export function applyAccept(
  model: Model,
  invitation: Invitation,
  answer: { userId: string; memberId: string },
): { person: Person; spec: NewKeySpec; made: Making } {
  // The platform issues it (it proves identity), on the authority of the invitation's sender.
  const made = { creatorAccess: ownerAccess(model, invitation.sender), provesIdentity: true };
  let invitee = personByEmail(model, invitation.email);
  if (!invitee) {
    // Emails are `<label>-<run tag>@…`, unique per run (commands.ts, world.ts).
    // In live mode the token reached nobody but the invitee's mailbox: accepting with it proves the address.
    const proven = model.appMode === 'live';
    invitee = { label: invitation.email.split('-')[0]!, email: invitation.email, userId: answer.userId, operator: false, proven };
    model.persons.push(invitee);
  }
  const existing = model.memberships.find((m) => m.person === invitee.label && m.networkId === invitation.networkId);
  if (existing) {
    existing.id = answer.memberId;
    existing.status = 'active';
    existing.role = invitation.role;
  } else {
    model.memberships.push({ id: answer.memberId, person: invitee.label, networkId: invitation.networkId, role: invitation.role, status: 'active' });
  }
  invitation.status = 'accepted';
  // The platform mints it, in its network's mode.
  const spec = newKeySpec(model, { kind: 'person', label: invitee.label }, false, { [invitation.networkId]: invitation.role });
  return { person: invitee, spec, made };
}

/** A person keeps at most this many sessions; an 11th ends the oldest (server/services/sign-in/complete-sign-in.ts). */
const MAX_SESSIONS = 10;

/**
 * An email sign-in (always allowed for a person with an address): the first one proves the
 * address, unless it is proven already, so every key the person had stops proving who they are;
 * the oldest sessions past the newest nine end; the session key covers each active membership at
 * its role (and is live if any of them is).
 */
export function applySignIn(model: Model, signer: Person): { spec: NewKeySpec; made: Making } {
  const owner: Owner = { kind: 'person', label: signer.label };
  if (!signer.proven) {
    for (const key of model.keys) if (sameOwner(key.owner, owner)) key.provesIdentity = false;
    signer.proven = true;
  }
  const sessions = model.keys.filter((k) => k.session && sameOwner(k.owner, owner) && isLive(model, k));
  for (const old of sessions.slice(0, Math.max(0, sessions.length - (MAX_SESSIONS - 1)))) old.ended = true;
  const made = { creatorAccess: ownerAccess(model, owner), provesIdentity: true };
  // Live if any of the person's networks is: a session may span both modes.
  return { spec: newKeySpec(model, owner, false, { ...ownerAccess(model, owner).scopes }, true), made };
}
