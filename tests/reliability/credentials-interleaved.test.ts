/**
 * The credentials model with concurrency: credentials are linearizable (docs/SECURITY.md invariant 7).
 *
 * Each run builds the credentials model's world through the API (live networks A and B, test
 * network C, five persons, two service accounts: tests/support/credentials-model/world.ts) on two
 * web processes of a live deployment sharing one database (`npm start` and a second `WORKER=off npm
 * start`: tests/support/credentials-model/service.ts), then sends one or two batches of credential operations concurrently,
 * each through one of the two processes. A batch centres on one race — rotate ∥ revoke of one
 * key; 1–3 mints ∥ the demotion, removal or revocation of the minting key (or deletion of its
 * service account); 1–3 writes ∥ the same — plus up to two random operations, and a read sent
 * the moment the narrowing request has answered (GET /v1/me with the raced key, the network's key
 * list, its advertisers). fast-check's scheduler (`fc.scheduler()`) decides in which order the
 * requests are let go, and each waits a drawn 0–6 ms more.
 *
 * Once everything has settled, the history must be linearizable against the model
 * (tests/support/credentials-model/model.ts): some serial order of ALL the batch's operations,
 * consistent with real time (an operation sent after another had answered comes after it), in
 * which every answer is what the model says that operation answers at that point (allowed →
 * 2xx; refused → the rulebook's status), every read sees that point's state, and after which the
 * observable state is the model's: which tokens work (GET /v1/me, through both processes), at
 * which role on which network, which keys, memberships and service accounts exist (the database),
 * which advertisers. Every order is searched (depth first, states that two orders reach alike
 * explored once); the states that survive carry over to the next batch.
 *
 * One allowance: an operation whose own key was revoked or narrowed (its owner demoted, removed
 * from a network, its service account deleted) by an operation earlier in the order may be refused
 * with 401, 403 or 409 whatever the model says there. A request already under way when that
 * happened learns it in its transaction and is refused as docs/keys-and-roles.md says (401 revoked, 403
 * narrowed, 409 a lost compare-and-set), where the same request sent afterwards would be refused
 * otherwise (404 for a key it no longer covers), or even succeed with less (a copy of its access,
 * now smaller). A refusal changes nothing, so this never explains away a write that should not
 * have happened, and a refusal of an operation whose caller nothing touched is still judged exactly.
 *
 * Not modelled, as in credentials-model: expiry, the rotation grace period running out (grace is
 * one hour here, so a key in its grace period is live), rate limits.
 *
 * Environment:
 *   CREDENTIALS_INTERLEAVED_RUNS   runs, each on a fresh world (default 30)
 *   CREDENTIALS_INTERLEAVED_SEED, CREDENTIALS_INTERLEAVED_PATH   replay a reported run (fast-check prints both)
 *   CREDENTIALS_MODEL_RELAX        rules of the model to stop enforcing, as for credentials-model.test.ts. Never set in CI.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusalUnsaid } from '@/tests/support/credentials-model/commands';
import { emptyStats, send, type Answer, type KeyView, type MeView, type Real, type Request } from '@/tests/support/credentials-model/http';
import {
  accessOf,
  addKey,
  applyChangeRole,
  applyDeleteServiceAccount,
  applyNetworkRevoke,
  applyRemoveMember,
  applyRevoke,
  applyRotation,
  describeAccess,
  describeKey,
  expectAdministers,
  expectChangeRole,
  expectDeleteServiceAccount,
  expectMintKeyFor,
  expectMintOwnKey,
  expectNetworkRevoke,
  expectNetworkRotate,
  expectRemoveMember,
  expectRevokeOwnKey,
  expectRotateOwnKey,
  isAdministrator,
  isLive,
  isNetworkKey,
  isOperatorKey,
  keyById,
  madeBy,
  networkLabel,
  relaxations,
  rotationSpec,
  sameOwner,
  tokenMode,
  type Access,
  type Expectation,
  type Key,
  type Making,
  type Model,
  type NewKeySpec,
  type Role,
} from '@/tests/support/credentials-model/model';
import { useLiveService } from '@/tests/support/credentials-model/service';
import { WorldPool } from '@/tests/support/credentials-model/world';
import { reportReliability } from '@/tests/support/reliability';
import { seedFrom } from '@/tests/support/seed';
import { inEnvelope } from '@/tests/support/web-pair';

const RUNS = Number(process.env.CREDENTIALS_INTERLEAVED_RUNS ?? 30);
const SEED = seedFrom('CREDENTIALS_INTERLEAVED_SEED');
const PATH = process.env.CREDENTIALS_INTERLEAVED_PATH;
const GRACE_SECONDS = 3600;
/** More surviving states than this after a batch means the model cannot tell them apart: keep the first ones. */
const MAX_STATES = 64;

// ---------------------------------------------------------------------------
// What a serial order is explained against: the model, and the advertisers written
// ---------------------------------------------------------------------------

interface State {
  model: Model;
  advertisers: Array<{ id: string; networkId: string }>;
}

const clone = (state: State): State => structuredClone(state);

/** What tells two states apart (not the labels traces give keys, which depend on the order). */
function fingerprint(state: State): string {
  const m = state.model;
  return JSON.stringify([
    m.keys.map((k) => [k.id, k.mode, k.revoked, k.rotated, k.superUser, k.provesIdentity, Object.entries(k.granted).sort()]).sort(),
    m.memberships.map((x) => [x.id, x.role, x.status]).sort(),
    m.serviceAccounts.map((s) => [s.id, s.deleted]),
    m.invitations.map((i) => [i.id, i.status]),
    state.advertisers.map((a) => a.id).sort(),
  ]);
}

// ---------------------------------------------------------------------------
// Operations: a request, and what it must answer and change at any point of an order
// ---------------------------------------------------------------------------

type Side = 0 | 1;

interface Op {
  /** As resolved against the state the batch started from, for the failure message. */
  label: string;
  side: Side;
  delayMs: number;
  /** Sent only once this operation (an index in the batch) has answered: a read right after it. */
  after?: number;
  request: Request;
  /**
   * This operation as the next one of a serial order, in `state`: undefined when `answer` is
   * what it answers there (and `state` is changed as it changes the world), else why not.
   */
  step(state: State, answer: Answer, start: Model): string | undefined;
}

const carried = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** Whether the model's expectation fits the answer (see the file's comment for the 403 allowance). */
function fits(expectation: Expectation, answer: Answer, success: number, narrowedCaller: boolean): string | undefined {
  if (answer.status >= 500) return 'a server error';
  // The caller's own key was narrowed or revoked earlier in this order: any of the refusals docs/keys-and-roles.md names fits.
  if (narrowedCaller && [401, 403, 409].includes(answer.status)) return undefined;
  if (expectation.outcome === 'allowed') return answer.status === success ? undefined : `must be allowed (${success}) here: ${expectation.why}`;
  const refusedAs = (s: number) => s >= 400 && s < 500 && (!expectation.statuses.length || expectation.statuses.includes(s));
  if (carried(answer)) return expectation.outcome === 'either' && answer.status === success ? undefined : `must be refused here: ${expectation.why}`;
  if (!refusedAs(answer.status)) return `must be refused with ${expectation.statuses.join(' or ') || 'a 4xx'} here: ${expectation.why}`;
  const unsaid = refusalUnsaid(expectation, answer);
  return unsaid && `must be refused (${expectation.why}), ${unsaid}`;
}

const accessText = (access: Access) => JSON.stringify([access.superUser, Object.entries(access.scopes).sort()]);

/** The caller's access here is not what it was when the batch started (an earlier operation of the order narrowed it). */
function narrowed(state: State, start: Model, actorId: string): boolean {
  const now = keyById(state.model, actorId)!;
  const then = keyById(start, actorId)!;
  return isLive(state.model, now) !== isLive(start, then) || accessText(accessOf(state.model, now)) !== accessText(accessOf(start, then));
}

function keyOf(state: State, id: string): Key {
  return keyById(state.model, id)!;
}

/**
 * An operation that creates a key: allowed → the view answered advertises the new key's access at
 * this point (I4), and it has the mode the model predicts there.
 */
function keeps(state: State, answer: Answer, spec: NewKeySpec, made: Making, origin: string): string | undefined {
  const view = answer.body as KeyView;
  if (tokenMode(view.token!) !== spec.mode || view.environment !== spec.mode) return `makes a ${view.environment} key, a ${spec.mode} one here`;
  const key = addKey(state.model, { id: view.id, token: view.token!, spec, made, origin });
  const advertised: Access = { superUser: view.super_user, scopes: Object.fromEntries(view.scopes.map((s) => [s.network_id, s.role])) };
  const working = accessOf(state.model, key);
  return accessText(advertised) === accessText(working)
    ? undefined
    : `advertises ${describeAccess(state.model, advertised)}, works here as ${describeAccess(state.model, working)}`;
}

const json = (body: unknown) => JSON.stringify(body);

function rotate(m: Model, side: Side, delayMs: number, actorId: string, targetId: string, grace: number, networkId?: string): Op {
  const actor = keyById(m, actorId)!;
  const target = keyById(m, targetId)!;
  const path = networkId ? `/networks/${networkId}/apikeys/${targetId}/rotate` : `/apikeys/${targetId}/rotate`;
  return {
    label: `${describeKey(m, actor)} rotates ${describeKey(m, target)}${networkId ? ` in network ${networkLabel(m, networkId)}` : ''} (grace ${grace} s)`,
    side,
    delayMs,
    request: { method: 'POST', path, token: actor.token, body: json({ grace_period_seconds: grace }) },
    step(state, answer, start) {
      const a = keyOf(state, actorId);
      const t = keyOf(state, targetId);
      const expectation = networkId ? expectNetworkRotate(state.model, a, networkId, t) : expectRotateOwnKey(state.model, a, t);
      const made = madeBy(state.model, a, t.owner);
      const unfit = fits(expectation, answer, 201, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      const spec = rotationSpec(state.model, t);
      // Within its grace period the old key works on, but is rotated (a second rotation → 409).
      applyRotation(t, (answer.body as KeyView).id, grace > 0);
      return keeps(state, answer, spec, made, `rotated from ${t.label}`);
    },
  };
}

function revoke(m: Model, side: Side, delayMs: number, actorId: string, targetId: string, networkId?: string): Op {
  const actor = keyById(m, actorId)!;
  const target = keyById(m, targetId)!;
  return {
    label: `${describeKey(m, actor)} revokes ${describeKey(m, target)}${networkId ? ` in network ${networkLabel(m, networkId)}` : ''}`,
    side,
    delayMs,
    request: { method: 'DELETE', path: networkId ? `/networks/${networkId}/apikeys/${targetId}` : `/apikeys/${targetId}`, token: actor.token },
    step(state, answer, start) {
      const a = keyOf(state, actorId);
      const t = keyOf(state, targetId);
      const expectation = networkId ? expectNetworkRevoke(state.model, a, networkId, t) : expectRevokeOwnKey(state.model, a, t);
      const unfit = fits(expectation, answer, 200, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      if (networkId) applyNetworkRevoke(state.model, t, networkId);
      else applyRevoke(state.model, t);
      return undefined;
    },
  };
}

function mintOwn(m: Model, side: Side, delayMs: number, actorId: string): Op {
  const actor = keyById(m, actorId)!;
  return {
    label: `${describeKey(m, actor)} mints an own key with a copy of its access`,
    side,
    delayMs,
    request: { method: 'POST', path: '/apikeys', token: actor.token, body: json({ key_name: `interleaved ${m.tag}` }) },
    step(state, answer, start) {
      const a = keyOf(state, actorId);
      const { expectation, spec } = expectMintOwnKey(state.model, a, { scopes: undefined, superUser: false });
      const made = madeBy(state.model, a, spec.owner);
      const unfit = fits(expectation, answer, 201, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      return keeps(state, answer, spec, made, `minted by ${a.label}`);
    },
  };
}

function mintForServiceAccount(
  m: Model,
  side: Side,
  delayMs: number,
  actorId: string,
  networkId: string,
  accountId: string,
  role: Role | undefined,
): Op {
  const actor = keyById(m, actorId)!;
  const account = m.serviceAccounts.find((s) => s.id === accountId)!;
  return {
    label: `${describeKey(m, actor)} mints a key for service account ${account.label} in network ${networkLabel(m, networkId)}${role ? ` as ${role}` : ''}`,
    side,
    delayMs,
    request: {
      method: 'POST',
      path: `/networks/${networkId}/service-accounts/${accountId}/keys`,
      token: actor.token,
      body: json({ key_name: `interleaved ${m.tag}`, ...(role ? { role } : {}) }),
    },
    step(state, answer, start) {
      const a = keyOf(state, actorId);
      const sa = state.model.serviceAccounts.find((s) => s.id === accountId)!;
      const { expectation, spec } = expectMintKeyFor(state.model, a, networkId, sa, role);
      const made = madeBy(state.model, a, spec.owner);
      const unfit = fits(expectation, answer, 201, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      return keeps(state, answer, spec, made, `minted for ${sa.label} by ${a.label}`);
    },
  };
}

function mintForMember(m: Model, side: Side, delayMs: number, actorId: string, networkId: string, membershipId: string, role: Role | undefined): Op {
  const actor = keyById(m, actorId)!;
  const membership = m.memberships.find((x) => x.id === membershipId)!;
  return {
    label: `${describeKey(m, actor)} mints a key for member ${membership.person} in network ${networkLabel(m, networkId)}${role ? ` as ${role}` : ''}`,
    side,
    delayMs,
    request: {
      method: 'POST',
      path: `/networks/${networkId}/members/${membershipId}/keys`,
      token: actor.token,
      body: json({ key_name: `interleaved ${m.tag}`, ...(role ? { role } : {}) }),
    },
    step(state, answer, start) {
      const a = keyOf(state, actorId);
      const ms = state.model.memberships.find((x) => x.id === membershipId)!;
      const { expectation, spec } = expectMintKeyFor(state.model, a, networkId, ms, role);
      const made = madeBy(state.model, a, spec.owner);
      const unfit = fits(expectation, answer, 201, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      return keeps(state, answer, spec, made, `minted for ${ms.person} by ${a.label}`);
    },
  };
}

function changeRole(m: Model, side: Side, delayMs: number, actorId: string, networkId: string, membershipId: string, role: Role): Op {
  const actor = keyById(m, actorId)!;
  const membership = m.memberships.find((x) => x.id === membershipId)!;
  return {
    label: `${describeKey(m, actor)} ${role === 'read_only' ? 'demotes' : 'promotes'} ${membership.person} (${membership.status} ${membership.role}) to ${role} in network ${networkLabel(m, networkId)}`,
    side,
    delayMs,
    request: { method: 'PATCH', path: `/networks/${networkId}/members/${membershipId}`, token: actor.token, body: json({ role }) },
    step(state, answer, start) {
      const ms = state.model.memberships.find((x) => x.id === membershipId)!;
      const unfit = fits(expectChangeRole(state.model, keyOf(state, actorId), networkId, ms, role), answer, 200, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      applyChangeRole(state.model, ms, role);
      return undefined;
    },
  };
}

function removeMember(m: Model, side: Side, delayMs: number, actorId: string, networkId: string, membershipId: string): Op {
  const actor = keyById(m, actorId)!;
  const membership = m.memberships.find((x) => x.id === membershipId)!;
  return {
    label: `${describeKey(m, actor)} removes ${membership.person} (${membership.status} ${membership.role}) from network ${networkLabel(m, networkId)}`,
    side,
    delayMs,
    request: { method: 'DELETE', path: `/networks/${networkId}/members/${membershipId}`, token: actor.token },
    step(state, answer, start) {
      const ms = state.model.memberships.find((x) => x.id === membershipId)!;
      const unfit = fits(expectRemoveMember(state.model, keyOf(state, actorId), networkId, ms), answer, 200, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      applyRemoveMember(state.model, ms);
      return undefined;
    },
  };
}

function deleteServiceAccount(m: Model, side: Side, delayMs: number, actorId: string, networkId: string, accountId: string): Op {
  const actor = keyById(m, actorId)!;
  const account = m.serviceAccounts.find((s) => s.id === accountId)!;
  return {
    label: `${describeKey(m, actor)} deletes service account ${account.label} in network ${networkLabel(m, networkId)}`,
    side,
    delayMs,
    request: { method: 'DELETE', path: `/networks/${networkId}/service-accounts/${accountId}`, token: actor.token },
    step(state, answer, start) {
      const sa = state.model.serviceAccounts.find((s) => s.id === accountId)!;
      const unfit = fits(expectDeleteServiceAccount(state.model, keyOf(state, actorId), networkId, sa), answer, 200, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      applyDeleteServiceAccount(state.model, sa);
      return undefined;
    },
  };
}

/** A plain write of the network: creating an advertiser needs the administrator role there. */
function write(m: Model, side: Side, delayMs: number, actorId: string, networkId: string): Op {
  const actor = keyById(m, actorId)!;
  return {
    label: `${describeKey(m, actor)} creates an advertiser in network ${networkLabel(m, networkId)}`,
    side,
    delayMs,
    request: { method: 'POST', path: `/networks/${networkId}/advertisers`, token: actor.token, body: json({ name: `interleaved ${m.tag}` }) },
    step(state, answer, start) {
      const unfit = fits(expectAdministers(state.model, keyOf(state, actorId), networkId), answer, 201, narrowed(state, start, actorId));
      if (unfit || !carried(answer)) return unfit;
      state.advertisers.push({ id: (answer.body as { id: string }).id, networkId });
      return undefined;
    },
  };
}

// Reads sent right after a narrowing answered: what they see is the state at their point of the order.

function readMe(m: Model, side: Side, after: number, keyId: string): Op {
  const key = keyById(m, keyId)!;
  return {
    label: `GET /v1/me with ${describeKey(m, key)}`,
    side,
    delayMs: 0,
    after,
    request: { method: 'GET', path: '/me', token: key.token },
    step(state, answer) {
      return meDisagrees(state.model, keyOf(state, keyId), answer);
    },
  };
}

function readNetworkKeys(m: Model, side: Side, after: number, networkId: string, operatorToken: string): Op {
  return {
    label: `the operator lists the keys of network ${networkLabel(m, networkId)}`,
    side,
    delayMs: 0,
    after,
    request: { method: 'GET', path: `/networks/${networkId}/apikeys?limit=200`, token: operatorToken },
    step(state, answer) {
      if (answer.status !== 200) return `must answer 200`;
      const listed = new Set((answer.body as { items: KeyView[] }).items.map((i) => i.id));
      for (const id of listed) {
        const key = keyById(state.model, id);
        if (!key) return `lists ${id}, a key that does not exist yet at this point`;
        if (isLive(state.model, key) && !isNetworkKey(state.model, key, networkId))
          return `lists ${describeKey(state.model, key)}, not a key of the network here`;
      }
      const missing = state.model.keys.find((k) => isLive(state.model, k) && isNetworkKey(state.model, k, networkId) && !listed.has(k.id));
      return missing ? `leaves out ${describeKey(state.model, missing)}` : undefined;
    },
  };
}

function readAdvertisers(m: Model, side: Side, after: number, networkId: string, operatorToken: string): Op {
  return {
    label: `the operator lists the advertisers of network ${networkLabel(m, networkId)}`,
    side,
    delayMs: 0,
    after,
    request: { method: 'GET', path: `/networks/${networkId}/advertisers?limit=200`, token: operatorToken },
    step(state, answer) {
      if (answer.status !== 200) return `must answer 200`;
      const listed = (answer.body as { items: Array<{ id: string }> }).items.map((i) => i.id).sort();
      const modelled = state.advertisers
        .filter((a) => a.networkId === networkId)
        .map((a) => a.id)
        .sort();
      return json(listed) === json(modelled) ? undefined : `lists ${listed.length} advertisers; at this point there are ${modelled.length}`;
    },
  };
}

/** GET /v1/me's answer for a key against the model: 401 once dead, else exactly its access. */
function meDisagrees(model: Model, key: Key, answer: Answer): string | undefined {
  if (!isLive(model, key)) return answer.status === 401 ? undefined : `${key.label} is revoked here: must answer 401`;
  if (answer.status !== 200) return `${describeKey(model, key)} is live here: must answer 200`;
  const me = answer.body as MeView;
  const seen: Access = { superUser: me.super_user, scopes: Object.fromEntries(me.scopes.map((s) => [s.network_id, s.role])) };
  return accessText(seen) === accessText(accessOf(model, key))
    ? undefined
    : `${key.label} shows ${describeAccess(model, seen)}; here it has ${describeAccess(model, accessOf(model, key))}`;
}

// ---------------------------------------------------------------------------
// Batches: one race and a few others, resolved against the state the batch starts from
// ---------------------------------------------------------------------------

const SCENARIOS = ['rotate ∥ revoke', 'mint ∥ narrow', 'write ∥ narrow'] as const;
const EXTRAS = ['rotate', 'revoke', 'mintOwn', 'mintForServiceAccount', 'mintForMember', 'changeRole', 'removeMember', 'write'] as const;

interface BatchPlan {
  scenario: (typeof SCENARIOS)[number];
  picks: number[];
  count: number;
  grace: number;
  extras: Array<{ kind: (typeof EXTRAS)[number]; picks: number[] }>;
  sides: boolean[];
  delays: number[];
}

const picksArb = (n: number) => fc.array(fc.nat(), { minLength: n, maxLength: n });
const batchArb: fc.Arbitrary<BatchPlan> = fc.record({
  scenario: fc.constantFrom(...SCENARIOS),
  picks: picksArb(8),
  count: fc.integer({ min: 1, max: 3 }),
  grace: fc.constantFrom(GRACE_SECONDS, GRACE_SECONDS, 0),
  extras: fc.array(fc.record({ kind: fc.constantFrom(...EXTRAS), picks: picksArb(5) }), { maxLength: 2 }),
  sides: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
  delays: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 12, maxLength: 12 }),
});

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

interface Planner {
  m: Model;
  operator: Key;
  operatorToken: string;
  side(i: number): Side;
  delay(i: number): number;
}

const liveTargets = (m: Model) => m.keys.filter((k) => isLive(m, k) && !isOperatorKey(m, k));
const administratorsOf = (m: Model, networkId: string) => m.keys.filter((k) => isLive(m, k) && isAdministrator(m, accessOf(m, k), networkId));

/**
 * The narrowing raced against `victim`'s requests on network n: the revocation of the key (by an
 * administrator of n, or through its owner's own route by another key of the owner when it is no
 * key of n), the demotion or removal of its owner, or the deletion of its service account — sent
 * by the operator or by another administrator of n.
 */
function narrowing(p: Planner, i: number, victim: Key, networkId: string, kindPick: number, actorPick: number): Op {
  const { m } = p;
  const side = p.side(i);
  const delay = p.delay(i);
  const admins = administratorsOf(m, networkId).filter((k) => k.id !== victim.id);
  const actor = actorPick % 2 === 0 || admins.length === 0 ? p.operator : pick(admins, actorPick >> 1);
  const membership =
    victim.owner.kind === 'person'
      ? m.memberships.find((x) => x.person === victim.owner.label && x.networkId === networkId && x.status === 'active')
      : undefined;
  const account = victim.owner.kind === 'serviceAccount' ? m.serviceAccounts.find((s) => s.label === victim.owner.label) : undefined;
  const options: Array<() => Op> = [
    () =>
      isNetworkKey(m, victim, networkId)
        ? revoke(m, side, delay, actor.id, victim.id, networkId)
        : revoke(m, side, delay, ownSibling(m, victim) ?? victim.id, victim.id),
  ];
  if (membership) {
    options.push(() => changeRole(m, side, delay, actor.id, networkId, membership.id, 'read_only'));
    options.push(() => removeMember(m, side, delay, actor.id, networkId, membership.id));
  }
  if (account) options.push(() => deleteServiceAccount(m, side, delay, actor.id, account.networkId, account.id));
  return pick(options, kindPick)();
}

/** Another live key of the same owner (undefined when it has none). */
function ownSibling(m: Model, key: Key): string | undefined {
  return m.keys.find((k) => k.id !== key.id && isLive(m, k) && sameOwner(k.owner, key.owner))?.id;
}

function plan(p: Planner, b: BatchPlan): Op[] {
  const { m } = p;
  const [p0, p1, p2, p3] = b.picks as [number, number, number, number];
  const ops: Op[] = [];
  const targets = liveTargets(m);
  if (b.scenario === 'rotate ∥ revoke' && targets.length) {
    const target = pick(targets, p0);
    const networks = Object.keys(target.granted);
    const onlyNetwork = networks.length === 1 && isNetworkKey(m, target, networks[0]!) ? networks[0] : undefined;
    const admin = onlyNetwork ? pick([p.operator, ...administratorsOf(m, onlyNetwork)], p3) : undefined;
    const sibling = ownSibling(m, target);
    // Who rotates: the key itself, another key of its owner, an administrator of its network.
    const rotators: Array<() => Op> = [() => rotate(m, p.side(0), p.delay(0), target.id, target.id, b.grace)];
    if (sibling) rotators.push(() => rotate(m, p.side(0), p.delay(0), sibling, target.id, b.grace));
    if (admin && onlyNetwork) rotators.push(() => rotate(m, p.side(0), p.delay(0), admin.id, target.id, b.grace, onlyNetwork));
    ops.push(pick(rotators, p1)());
    // Who revokes: the key itself, another key of its owner, an administrator of its network.
    const revokers: Array<() => Op> = [() => revoke(m, p.side(1), p.delay(1), target.id, target.id)];
    if (sibling) revokers.push(() => revoke(m, p.side(1), p.delay(1), sibling, target.id));
    if (admin && onlyNetwork) revokers.push(() => revoke(m, p.side(1), p.delay(1), admin.id, target.id, onlyNetwork));
    ops.push(pick(revokers, p2)());
    ops.push(readMe(m, p.side(2), 1, target.id));
  } else {
    const writing = b.scenario === 'write ∥ narrow';
    // The raced key: any live key with a network (writes), an administrator's (mints).
    const pool = targets.filter((k) => Object.keys(accessOf(m, k).scopes).some((n) => (!writing ? isAdministrator(m, accessOf(m, k), n) : true)));
    if (pool.length === 0) return ops;
    const actor = pick(pool, p0);
    const networks = Object.keys(accessOf(m, actor).scopes).filter((n) => writing || isAdministrator(m, accessOf(m, actor), n));
    const networkId = pick(networks, p1);
    for (let j = 0; j < b.count; j++) {
      const choice = b.picks[(6 + j) % b.picks.length]!;
      if (writing) {
        ops.push(write(m, p.side(j), p.delay(j), actor.id, networkId));
        continue;
      }
      const accounts = m.serviceAccounts.filter((s) => s.networkId === networkId && !s.deleted);
      const members = m.memberships.filter((x) => x.networkId === networkId && x.status === 'active');
      if (choice % 3 === 0 && accounts.length)
        ops.push(mintForServiceAccount(m, p.side(j), p.delay(j), actor.id, networkId, pick(accounts, choice >> 2).id, undefined));
      else if (choice % 3 === 1 && members.length)
        ops.push(mintForMember(m, p.side(j), p.delay(j), actor.id, networkId, pick(members, choice >> 2).id, undefined));
      else ops.push(mintOwn(m, p.side(j), p.delay(j), actor.id));
    }
    const at = ops.length;
    ops.push(narrowing(p, at, actor, networkId, p2, p3));
    ops.push(
      writing
        ? readAdvertisers(m, p.side(at + 1), at, networkId, p.operatorToken)
        : readNetworkKeys(m, p.side(at + 1), at, networkId, p.operatorToken),
    );
  }
  for (const extra of b.extras) ops.push(extraOp(p, ops.length, extra.kind, extra.picks));
  return ops;
}

/** A random operation beside the race: any key (revoked ones too) acting anywhere. */
function extraOp(p: Planner, i: number, kind: (typeof EXTRAS)[number], picks: number[]): Op {
  const { m } = p;
  const [a, b, c, d] = picks as [number, number, number, number];
  const actor = pick(
    m.keys.filter((k) => !isOperatorKey(m, k)),
    a,
  );
  const network = pick(m.networks, b);
  const side = p.side(i);
  const delay = p.delay(i);
  switch (kind) {
    case 'rotate':
      return rotate(
        m,
        side,
        delay,
        actor.id,
        pick(
          m.keys.filter((k) => sameOwner(k.owner, actor.owner)),
          c,
        ).id,
        d % 2 ? GRACE_SECONDS : 0,
      );
    case 'revoke':
      return revoke(
        m,
        side,
        delay,
        actor.id,
        pick(
          m.keys.filter((k) => !isOperatorKey(m, k)),
          c,
        ).id,
        d % 2 ? network.id : undefined,
      );
    case 'mintOwn':
      return mintOwn(m, side, delay, actor.id);
    case 'mintForServiceAccount':
      return mintForServiceAccount(m, side, delay, actor.id, network.id, pick(m.serviceAccounts, c).id, d % 3 === 0 ? 'administrator' : undefined);
    case 'mintForMember':
      return mintForMember(m, side, delay, actor.id, network.id, pick(m.memberships, c).id, d % 3 === 0 ? 'administrator' : undefined);
    case 'changeRole':
      return changeRole(m, side, delay, actor.id, network.id, pick(m.memberships, c).id, d % 2 ? 'read_only' : 'administrator');
    case 'removeMember':
      return removeMember(m, side, delay, actor.id, network.id, pick(m.memberships, c).id);
    case 'write':
      return write(m, side, delay, actor.id, network.id);
  }
}

// ---------------------------------------------------------------------------
// Running a batch, observing, and explaining the history
// ---------------------------------------------------------------------------

interface Happened {
  answer: Answer;
  sentAt: number;
  answeredAt: number;
}

/** What the world looks like once a batch has settled. */
interface Observed {
  me: Map<string, Answer>;
  keyIds: string[];
  /** Each of those keys' mode (`api_keys.environment`). */
  keyModes: Map<string, string>;
  memberships: Map<string, string>;
  deletedAccounts: string[];
  advertisers: string[];
}

async function observe(reals: readonly [Real, Real], state: State): Promise<Observed> {
  const m = state.model;
  const me = new Map<string, Answer>();
  await Promise.all(m.keys.map(async (k, i) => me.set(k.id, await send(reals[(i % 2) as Side], { method: 'GET', path: '/me', token: k.token }))));
  const db = reals[0].database;
  const networkIds = m.networks.map((n) => n.id);
  const userIds = m.persons.filter((x) => !x.operator).map((x) => x.userId);
  const accountIds = m.serviceAccounts.map((s) => s.id);
  const keys = await db<
    Array<{ id: string; environment: string }>
  >`select id, environment from api_keys where user_id = any(${userIds}) or service_account_id = any(${accountIds}) order by id`;
  const memberships = await db<
    Array<{ id: string; role: string; status: string }>
  >`select id, role, status from memberships where network_id = any(${networkIds})`;
  const deleted = await db<
    Array<{ id: string }>
  >`select id from service_accounts where network_id = any(${networkIds}) and deleted_at is not null order by id`;
  const advertisers = await db<Array<{ id: string }>>`select id from advertisers where network_id = any(${networkIds}) order by id`;
  return {
    me,
    keyIds: keys.map((k) => k.id),
    keyModes: new Map(keys.map((k) => [k.id, k.environment])),
    memberships: new Map(memberships.map((x) => [x.id, `${x.role} ${x.status}`])),
    deletedAccounts: deleted.map((d) => d.id),
    advertisers: advertisers.map((a) => a.id),
  };
}

/** How the settled world differs from a state (undefined: not at all). */
function differs(state: State, seen: Observed): string | undefined {
  const m = state.model;
  for (const key of m.keys) {
    const answer = seen.me.get(key.id);
    if (!answer) return `${key.label} was not observed`;
    const wrong = meDisagrees(m, key, answer);
    if (wrong) return `GET /v1/me: ${wrong} (answered ${answer.status})`;
  }
  const modelledKeys = m.keys
    .filter((k) => !isOperatorKey(m, k))
    .map((k) => k.id)
    .sort();
  if (json(modelledKeys) !== json(seen.keyIds)) {
    const extra = seen.keyIds.filter((id) => !modelledKeys.includes(id));
    const missing = modelledKeys.filter((id) => !seen.keyIds.includes(id));
    return `the database holds keys ${json(extra)} this order does not make, and lacks ${json(missing)}`;
  }
  const otherMode = m.keys.find((k) => !isOperatorKey(m, k) && seen.keyModes.get(k.id) !== k.mode);
  if (otherMode) return `${otherMode.label} is a ${seen.keyModes.get(otherMode.id)} key in the database; this order makes it ${otherMode.mode}`;
  for (const ms of m.memberships) {
    if (seen.memberships.get(ms.id) !== `${ms.role} ${ms.status}`)
      return `${ms.person}'s membership of ${networkLabel(m, ms.networkId)} is ${seen.memberships.get(ms.id)}, not ${ms.role} ${ms.status}`;
  }
  const deleted = m.serviceAccounts
    .filter((s) => s.deleted)
    .map((s) => s.id)
    .sort();
  if (json(deleted) !== json(seen.deletedAccounts)) return `deleted service accounts are ${json(seen.deletedAccounts)}, not ${json(deleted)}`;
  const advertisers = state.advertisers.map((a) => a.id).sort();
  if (json(advertisers) !== json(seen.advertisers))
    return `the database holds ${seen.advertisers.length} advertisers; this order makes ${advertisers.length}`;
  return undefined;
}

interface Explanation {
  /** States after some serial order that fits every answer, every read and the settled world. */
  states: State[];
  /** Orders that fit every answer (before comparing the settled world). */
  orders: number;
  /** States explored. */
  explored: number;
  /** Why the orders failed, a few, for the message. */
  reasons: string[];
}

/**
 * Every serial order of the batch's operations that respects real time, tried depth first from
 * each state the batch may have started in; states reached alike by two orders explored once.
 */
function explain(starts: State[], ops: Op[], happened: Happened[], seen: Observed): Explanation {
  const n = ops.length;
  const before = ops.map((_, i) => ops.map((__, j) => j).filter((j) => happened[j]!.answeredAt < happened[i]!.sentAt));
  const finals = new Map<string, State>();
  const visited = new Set<string>();
  const reasons = new Set<string>();
  let orders = 0;
  let explored = 0;
  const walk = (state: State, done: number, start: Model, from: number, order: number[]) => {
    // Per starting state too: the allowance for a narrowed caller compares with where the batch started.
    const key = `${from}:${done}:${fingerprint(state)}`;
    if (visited.has(key)) return;
    visited.add(key);
    explored += 1;
    if (done === (1 << n) - 1) {
      orders += 1;
      const wrong = differs(state, seen);
      if (wrong) reasons.add(`order ${order.map((i) => i + 1).join(' → ')}: afterwards ${wrong}`);
      else finals.set(fingerprint(state), state);
      return;
    }
    for (let i = 0; i < n; i++) {
      if (done & (1 << i) || before[i]!.some((j) => !(done & (1 << j)))) continue;
      const next = clone(state);
      const wrong = ops[i]!.step(next, happened[i]!.answer, start);
      if (wrong) {
        if (reasons.size < 40)
          reasons.add(
            `order ${[...order, i].map((x) => x + 1).join(' → ')}: operation ${i + 1} answered ${happened[i]!.answer.status}, but ${wrong}`,
          );
        continue;
      }
      walk(next, done | (1 << i), start, from, [...order, i]);
    }
  };
  starts.forEach((start, from) => walk(clone(start), 0, start.model, from, []));
  return { states: [...finals.values()].slice(0, MAX_STATES), orders, explored, reasons: [...reasons] };
}

// ---------------------------------------------------------------------------

interface Figures {
  runs: number;
  batches: number;
  operations: number;
  requests: number;
  allowed: number;
  refused: number;
  histories: number;
  statesExplored: number;
  byScenario: Record<string, number>;
}

const service = useLiveService('credentials-interleaved', { processes: 2 });
/** Worlds built ahead of the runs that take them (a world waits mostly for its invitation emails). */
const WORLDS_AHEAD = 2;

describe('credential operations interleaved through two web processes (docs/SECURITY.md invariant 7)', () => {
  it('every history is some serial order of its operations: answers, reads and the settled world agree with the model', async () => {
    const started = Date.now();
    const figures: Figures = {
      runs: 0,
      batches: 0,
      operations: 0,
      requests: 0,
      allowed: 0,
      refused: 0,
      histories: 0,
      statesExplored: 0,
      byScenario: {},
    };
    const stats = emptyStats();
    const real = (side: Side): Real => ({
      baseUrl: service.urls[side]!,
      bootstrapToken: service.superToken,
      database: service.sql,
      mail: service.mail,
      trace: [],
      seenRevoked: new Set(),
      stats,
    });
    const reals = [real(0), real(1)] as const;
    const worlds = new WorldPool(real(0), 'shared', relaxations(), WORLDS_AHEAD);

    const property = fc.asyncProperty(fc.scheduler(), fc.array(batchArb, { minLength: 1, maxLength: 2 }), async (s, batches) => {
      figures.runs += 1;
      const world = await worlds.take(reals[0]);
      let states: State[] = [{ model: world, advertisers: [] }];
      const story: string[] = [];
      for (const [index, batch] of batches.entries()) {
        const m = states[0]!.model;
        const operator = m.keys.find((k) => isOperatorKey(m, k) && isLive(m, k))!;
        const planner: Planner = {
          m,
          operator,
          operatorToken: service.superToken,
          side: (i) => (batch.sides[i % batch.sides.length] ? 1 : 0),
          delay: (i) => batch.delays[i % batch.delays.length]!,
        };
        const ops = plan(planner, batch);
        if (ops.length === 0) continue;
        figures.batches += 1;
        figures.operations += ops.length;
        figures.byScenario[batch.scenario] = (figures.byScenario[batch.scenario] ?? 0) + 1;

        // The scheduler lets the requests go one by one in the order it picks; a read waits for its operation's answer.
        const happened: Array<Promise<Happened>> = [];
        const sendOp = async (op: Op): Promise<Happened> => {
          await new Promise((resolve) => setTimeout(resolve, op.delayMs));
          const sentAt = performance.now();
          const answer = await send(reals[op.side], op.request);
          return { answer, sentAt, answeredAt: performance.now() };
        };
        ops.forEach((op, i) => {
          const released =
            op.after === undefined
              ? s.schedule(Promise.resolve(i), `${i + 1}. ${op.label}`)
              : happened[op.after]!.then(() => s.schedule(Promise.resolve(i), `${i + 1}. ${op.label}`));
          happened.push(released.then(() => sendOp(op)));
        });
        const history = await s.waitFor(Promise.all(happened));
        figures.requests += history.length;
        const lines = ops.map((op, i) => {
          const h = history[i]!;
          return `  ${i + 1}. ${op.label}, through process ${op.side + 1}: ${h.answer.status} (sent at ${h.sentAt.toFixed(1)} ms, answered at ${h.answeredAt.toFixed(1)} ms)`;
        });
        story.push(`batch ${index + 1} (${batch.scenario}):`, ...lines);

        const broken = history.flatMap((h, i) =>
          h.answer.status >= 500 || (h.answer.status >= 400 && !inEnvelope(h.answer))
            ? [`operation ${i + 1} answered ${h.answer.status}: ${h.answer.text.slice(0, 300)}`]
            : [],
        );
        if (broken.length) throw new Error(`${broken.join('\n')}\n\n${story.join('\n')}`);
        for (const h of history) {
          if (carried(h.answer)) figures.allowed += 1;
          else figures.refused += 1;
        }

        const seen = await observe(reals, states[0]!);
        // Keys the batch created are observed too: every state that survives holds the same ones.
        const extra = history.flatMap((h) =>
          carried(h.answer) && (h.answer.body as KeyView | undefined)?.token && (h.answer.body as KeyView).id ? [h.answer.body as KeyView] : [],
        );
        await Promise.all(
          extra.map(async (k, i) => seen.me.set(k.id, await send(reals[(i % 2) as Side], { method: 'GET', path: '/me', token: k.token! }))),
        );
        const explanation = explain(states, ops, history, seen);
        figures.histories += 1;
        figures.statesExplored += explanation.explored;
        if (explanation.states.length === 0) {
          throw new Error(
            `No serial order of these operations explains what happened (${explanation.orders} orders fit every answer and read, none the settled world):\n` +
              `${story.join('\n')}\n\nWhy each order fails (a few):\n${explanation.reasons
                .slice(0, 12)
                .map((r) => `  ${r}`)
                .join('\n')}`,
          );
        }
        states = explanation.states;
      }
    });

    let outcome = 'passed';
    try {
      await fc.assert(property, {
        numRuns: RUNS,
        endOnFailure: true,
        seed: SEED,
        ...(PATH ? { path: PATH } : {}),
      });
    } catch (error) {
      outcome = 'failed';
      throw error;
    } finally {
      await worlds.close();
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(
        `credentials interleaved ${outcome} (seed ${SEED}, CREDENTIALS_INTERLEAVED_SEED replays it): ${JSON.stringify({ ...figures, seconds })}`,
      );
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    expect(figures.histories).toBeGreaterThan(0);
    // A relaxed model proves less than the claim: such a run is for looking at one hole, not for the report.
    if (relaxations().size) return;
    reportReliability('credentials-interleaved', {
      claim:
        'Credential operations raced through two web processes (rotate ∥ revoke; mints ∥ demotion, removal, revocation, deletion; writes ∥ the same; ' +
        'plus random ones), released in an order fast-check’s scheduler picks: every history was some serial order of its operations, consistent ' +
        'with real time, in which every answer, every read sent right after the narrowing, and the settled world (tokens, roles, keys, memberships, ' +
        'advertisers) agreed with the credentials model',
      figures: {
        runs: figures.runs,
        batches: figures.batches,
        'rotate ∥ revoke / mint ∥ narrow / write ∥ narrow': SCENARIOS.map((x) => figures.byScenario[x] ?? 0).join(' / '),
        operations: figures.operations,
        'allowed / refused': `${figures.allowed} / ${figures.refused}`,
        'states explored': figures.statesExplored,
        seconds,
      },
    });
  });
});
