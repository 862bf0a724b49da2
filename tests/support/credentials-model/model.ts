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

/** What a key can do now (GET /v1/me), or what a creator held when it made a key. */
export interface Access {
  superUser: boolean;
  scopes: Scopes;
}

export type Owner = { kind: 'person'; label: string } | { kind: 'serviceAccount'; label: string };

export interface Network {
  id: string;
  label: string;
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
   * Signed in with an emailed link at least once (rulebook "Who owns an email address"): from
   * then on only keys made after that prove who the person is. Test mode's acceptances prove nothing.
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
  token: string;
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
} as const;
export type Relaxation = keyof typeof RELAXATIONS;

export interface Model {
  relax: ReadonlySet<Relaxation>;
  networks: Network[];
  persons: Person[];
  memberships: Membership[];
  serviceAccounts: ServiceAccount[];
  keys: Key[];
  invitations: Invitation[];
  posts: PostRecord[];
  tag: string;
  counter: number;
}

export function emptyModel(tag: string, relax: ReadonlySet<Relaxation> = new Set()): Model {
  return { relax, networks: [], persons: [], memberships: [], serviceAccounts: [], keys: [], invitations: [], posts: [], tag, counter: 0 };
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
  if (owner.kind === 'person' && person(model, owner.label).operator) return { superUser: true, scopes: {} };
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

export function accessOf(model: Model, key: Key): Access {
  const scopes: Scopes = {};
  for (const [networkId, granted] of Object.entries(key.granted)) {
    const role = standing(model, key.owner, networkId);
    if (role) scopes[networkId] = lowerRole(granted, role);
  }
  return { superUser: key.superUser, scopes };
}

export function isAdministrator(access: Access, networkId: string): boolean {
  return access.superUser || access.scopes[networkId] === 'administrator';
}

/**
 * The calling key covers the target key: it is super_user, or the target is not, holds no
 * scope beyond the caller's access, and proves its owner's identity only if the caller does too.
 */
export function covers(model: Model, caller: Key, target: Key): boolean {
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
  if (access.superUser) return 'super_user';
  const parts = Object.entries(access.scopes)
    .map(([networkId, role]) => `${role}@${networkLabel(model, networkId)}`)
    .sort();
  return parts.length ? parts.join(',') : 'no scopes';
}

export function describeKey(model: Model, key: Key): string {
  return `${key.label}[${isLive(model, key) ? describeAccess(model, accessOf(model, key)) : 'revoked'}]`;
}

// ---------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------

export type Expectation =
  | { outcome: 'allowed'; why: string }
  /** `statuses` empty: any 4xx (the rulebook names none). */
  | { outcome: 'refused'; statuses: readonly number[]; why: string }
  /** The rulebook leaves it open: 2xx, or one of `statuses`. */
  | { outcome: 'either'; statuses: readonly number[]; why: string };

const allowed = (why = 'allowed'): Expectation => ({ outcome: 'allowed', why });
const refused = (why: string, ...statuses: number[]): Expectation => ({ outcome: 'refused', statuses, why });
const either = (why: string, ...statuses: number[]): Expectation => ({ outcome: 'either', statuses, why });

/** 401 for a dead key, 403 without the administrator role on the path's network. */
function gate(model: Model, actor: Key, networkId?: string): Expectation | undefined {
  if (!isLive(model, actor)) return refused('the calling key is revoked', 401);
  if (networkId !== undefined && !isAdministrator(accessOf(model, actor), networkId)) {
    return refused(`the calling key does not administer ${networkLabel(model, networkId)}`, 403);
  }
  return undefined;
}

/** What a key-creating operation must produce when allowed. */
export interface NewKeySpec {
  owner: Owner;
  superUser: boolean;
  granted: Scopes;
}

export function expectMintOwnKey(
  model: Model,
  actor: Key,
  request: { scopes: Scopes | undefined; superUser: boolean },
): { expectation: Expectation; spec: NewKeySpec } {
  const access = accessOf(model, actor);
  const granted = request.scopes ?? { ...access.scopes };
  const spec = { owner: actor.owner, superUser: request.superUser, granted };
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
  return { expectation: allowed(), spec };
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

function rotatable(model: Model, target: Key): Expectation | undefined {
  if (target.revoked || target.rotated) return refused('the key is revoked or already rotated', 409);
  if (target.session) return refused('a session’s key is not rotated: it ends', 409);
  for (const [networkId, role] of Object.entries(target.granted)) {
    if (!roleAtLeast(standing(model, target.owner, networkId), role)) {
      return refused(`the replacement’s scope on ${networkLabel(model, networkId)} would not work`, 409);
    }
  }
  return undefined;
}

export function expectRotateOwnKey(model: Model, actor: Key, target: Key): Expectation {
  return ownKeyReachable(model, actor, target) ?? rotatable(model, target) ?? allowed();
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
  return rotatable(model, target) ?? allowed();
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
  const spec = { owner, superUser: false, granted: { [networkId]: wanted } };
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
    if (stands && isAdministrator(accessOf(model, key), invitation.networkId)) return true;
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

/** Rotation with no grace period: the old key stops now, the new one has its owner, name and scopes. */
export function rotationSpec(target: Key): NewKeySpec {
  return { owner: target.owner, superUser: target.superUser, granted: { ...target.granted } };
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
    invitee = { label: invitation.email.split('-')[0]!, email: invitation.email, userId: answer.userId, operator: false };
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
  const spec: NewKeySpec = {
    owner: { kind: 'person', label: invitee.label },
    superUser: false,
    granted: { [invitation.networkId]: invitation.role },
  };
  return { person: invitee, spec, made };
}

/** A person keeps at most this many sessions; an 11th ends the oldest (server/services/sign-in/complete-sign-in.ts). */
const MAX_SESSIONS = 10;

/**
 * An email sign-in (always allowed for a person with an address): the first one proves the
 * address, so every key the person had stops proving who they are; the oldest sessions past
 * the newest nine end; the session key covers each active membership at its role.
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
  return { spec: { owner, superUser: false, granted: { ...ownerAccess(model, owner).scopes } }, made };
}
