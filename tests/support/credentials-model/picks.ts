/**
 * How a step picks its calling key and its targets from the model. Picks are plain
 * numbers resolved when the step runs, named so that they keep their meaning when
 * shrinking drops unrelated steps: a key by its owner and its age among the owner's
 * keys, invitations and POSTs newest first. Each pick leans towards targets where the
 * caller has something to do (its own keys, its networks) and keeps a share of
 * arbitrary ones (others' keys, other networks, revoked keys).
 */
import fc from 'fast-check';
import {
  accessOf,
  isAdministrator,
  isLive,
  ownerAccess,
  ROLES,
  sameOwner,
  type Invitation,
  type Key,
  type Membership,
  type Model,
  type Network,
  type Owner,
  type Role,
} from './model';

export const sometimes = (oneIn: number) =>
  fc.oneof({ arbitrary: fc.constant(false), weight: oneIn - 1 }, { arbitrary: fc.constant(true), weight: 1 });
export const usually = (oneIn: number) => sometimes(oneIn).map((b) => !b);

/**
 * A key, named by its owner and its age among that owner's keys (0 = newest). Owners keep
 * their order (the world's first), so when shrinking drops an unrelated step, a pick
 * still means the same key and the counterexample stays a counterexample.
 */
interface KeyPick {
  owner: number;
  key: number;
}

function owners(model: Model): Owner[] {
  return [
    ...model.persons.map((p): Owner => ({ kind: 'person', label: p.label })),
    ...model.serviceAccounts.map((sa): Owner => ({ kind: 'serviceAccount', label: sa.label })),
  ];
}

/** The picked owner's key in `pool` (or, if it has none there, the next owner's). */
export function pickKey(model: Model, pick: KeyPick, pool: Key[]): Key {
  const all = owners(model);
  for (let i = 0; i < all.length; i++) {
    const theirs = pool.filter((k) => sameOwner(k.owner, all[(pick.owner + i) % all.length]!));
    if (theirs.length) return theirs[theirs.length - 1 - (pick.key % theirs.length)]!;
  }
  return pool[pick.key % pool.length]!;
}

export interface ActorPick extends KeyPick {
  /** Any key, revoked ones included (else a live one). */
  anyKey: boolean;
  /** A key granted more than one network, when there is one: where network boundaries are tested. */
  wide: boolean;
}
export const actorPick: fc.Arbitrary<ActorPick> = fc.record({ owner: fc.nat(), key: fc.nat(), anyKey: sometimes(8), wide: sometimes(5) });

/** Keys granted more than one network. */
const wideKeys = (keys: readonly Key[]) => keys.filter((k) => Object.keys(k.granted).length > 1);

export function pickActor(model: Model, pick: ActorPick): Key {
  const live = model.keys.filter((k) => isLive(model, k));
  if (pick.wide && wideKeys(live).length) return pickKey(model, pick, wideKeys(live));
  return pickKey(model, pick, pick.anyKey || live.length === 0 ? model.keys : live);
}

interface TargetPick extends KeyPick {
  /** Among the caller's owner's keys, the keys in networks the caller administers, those granted more than one network, or all keys. */
  from: 'own' | 'near' | 'wide' | 'any';
}
export const ownTargetPick: fc.Arbitrary<TargetPick> = fc.record({
  owner: fc.nat(),
  key: fc.nat(),
  from: fc.constantFrom<TargetPick['from']>('own', 'own', 'own', 'any'),
});
export const networkTargetPick: fc.Arbitrary<TargetPick> = fc.record({
  owner: fc.nat(),
  key: fc.nat(),
  from: fc.constantFrom<TargetPick['from']>('near', 'near', 'wide', 'any'),
});

export function pickTarget(model: Model, actor: Key, pick: TargetPick): Key {
  const access = accessOf(model, actor);
  const pools = {
    own: model.keys.filter((k) => sameOwner(k.owner, actor.owner)),
    near: model.keys.filter((k) => Object.keys(k.granted).some((n) => isAdministrator(model, access, n))),
    wide: wideKeys(model.keys).filter((k) => Object.keys(k.granted).some((n) => isAdministrator(model, access, n))),
    any: model.keys,
  };
  const pool = pools[pick.from].length ? pools[pick.from] : model.keys;
  return pick.from === 'own' ? pickKey(model, { owner: 0, key: pick.key }, pool) : pickKey(model, pick, pool);
}

/** Half the time one of the three newest (an invitation just sent, a POST just made), else any. */
export const recentPick = fc.oneof(fc.nat({ max: 2 }), fc.nat());

/** Newest first: an index keeps meaning when shrinking drops older, unrelated entries. */
export function newest<T>(list: readonly T[], index: number): T {
  return list[list.length - 1 - (index % list.length)]!;
}

export interface NetworkPick {
  /** Among the networks the caller administers, those it reaches, the target key's, or all. */
  from: 'administered' | 'actor' | 'target' | 'any';
  index: number;
}
export const networkPick: fc.Arbitrary<NetworkPick> = fc.record({
  from: fc.constantFrom<NetworkPick['from']>('administered', 'administered', 'actor', 'target', 'any'),
  index: fc.nat(),
});

export function pickNetwork(model: Model, actor: Key, target: Key | undefined, pick: NetworkPick): Network {
  const access = accessOf(model, actor);
  let pool = model.networks;
  if (pick.from === 'administered') pool = model.networks.filter((n) => isAdministrator(model, access, n.id));
  if (pick.from === 'actor' && !access.superUser) pool = model.networks.filter((n) => n.id in access.scopes);
  if (pick.from === 'target' && target) pool = model.networks.filter((n) => n.id in target.granted);
  if (pool.length === 0) pool = model.networks;
  return pool[pick.index % pool.length]!;
}

interface MemberPick {
  index: number;
  /** A member of a network the caller administers (else any membership). */
  near: boolean;
}
export const memberPick: fc.Arbitrary<MemberPick> = fc.record({ index: fc.nat(), near: usually(3) });

export function pickMembership(model: Model, actor: Key, pick: MemberPick): Membership {
  const access = accessOf(model, actor);
  const near = model.memberships.filter((m) => isAdministrator(model, access, m.networkId));
  const pool = pick.near && near.length ? near : model.memberships;
  return pool[pick.index % pool.length]!;
}

/** The network a member or service account lives in, or (foreign) another one. */
export function homeOrForeign(model: Model, home: string, foreign: boolean, index: number): Network {
  const others = model.networks.filter((n) => n.id !== home);
  return foreign ? others[index % others.length]! : model.networks.find((n) => n.id === home)!;
}

export const foreignPick = fc.record({ foreign: sometimes(5), index: fc.nat() });
export const rolePick = fc.constantFrom<Role>(...ROLES);
export const optionalRole = fc.option(rolePick, { nil: undefined });

export interface InvitationPick {
  index: number;
  /** Among the invitations not accepted yet: pending, or revoked with their sender's standing (else any). */
  open: boolean;
  /**
   * Among the pending ones whose sender no longer administers the network (when there are
   * any): the few steps that make one (invite, then demote or remove the sender) are rarely
   * followed by an acceptance of exactly that invitation by chance.
   */
  orphaned: boolean;
}
export const invitationPick: fc.Arbitrary<InvitationPick> = fc.record({ index: recentPick, open: usually(4), orphaned: sometimes(3) });

function invitationPool(model: Readonly<Model>, pick: InvitationPick): readonly Invitation[] {
  const orphaned = model.invitations.filter(
    (i) => i.status === 'pending' && !isAdministrator(model as Model, ownerAccess(model as Model, i.sender), i.networkId),
  );
  if (pick.orphaned && orphaned.length) return orphaned;
  return pick.open ? model.invitations.filter((i) => i.status !== 'accepted') : model.invitations;
}

export const hasInvitation = (model: Readonly<Model>, p: { invitation: InvitationPick }) => invitationPool(model, p.invitation).length > 0;

export function pickInvitation(model: Model, pick: InvitationPick): Invitation {
  return newest(invitationPool(model, pick), pick.index);
}
