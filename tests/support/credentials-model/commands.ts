/**
 * The credential operations as fast-check commands. Each step picks its calling
 * key and its targets from the model (picks.ts: any live key, sometimes a revoked
 * one; targets in other networks and other people's keys included), asks the model
 * what must happen (model.ts), sends the request over HTTP, compares, applies the
 * effect, and then checks every invariant (checks.ts).
 */
import fc from 'fast-check';
import { newId } from '@/db/ids';
import { generateApiKeyToken, hashToken, tokenStart } from '@/server/auth/tokens';
import { softAuthenticator } from '@/tests/support/soft-authenticator';
import {
  checkCreatedKey,
  checkEveryToken,
  checkKeyModes,
  checkNetworkKeyList,
  checkNetworkKeyLists,
  checkOwnKeyList,
  checkShownAccess,
} from './checks';
import { checkReviewStates } from './review-checks';
import { post, send, violation, type AcceptedView, type Answer, type KeyView, type Real, type Request } from './http';
import {
  actorPick,
  foreignPick,
  hasInvitation,
  homeOrForeign,
  invitationPick,
  memberPick,
  networkPick,
  networkTargetPick,
  newest,
  optionalRole,
  ownTargetPick,
  pickActor,
  pickInvitation,
  pickMembership,
  pickNetwork,
  pickTarget,
  recentPick,
  rolePick,
  sometimes,
  usually,
  type NetworkPick,
} from './picks';
import { invitationToken } from './world';
import {
  accessOf,
  activeMembership,
  addKey,
  applyAccept,
  applyChangeRole,
  applyDeleteServiceAccount,
  applyNetworkRevoke,
  applyRemoveMember,
  applyRevoke,
  applyRotation,
  applySignIn,
  describeAccess,
  describeKey,
  expectAccept,
  expectChangeRole,
  expectCreateServiceAccount,
  expectDeleteServiceAccount,
  expectInvite,
  expectMintKeyFor,
  expectMintOwnKey,
  expectNetworkRevoke,
  expectNetworkRotate,
  expectSetKeyLifetime,
  expectReadOwnKey,
  expectRemoveMember,
  expectReplay,
  expectRevokeOwnKey,
  expectRotateOwnKey,
  expectAddPasskey,
  expectAdministers,
  newKeySpec,
  sameOwner,
  expectSignOut,
  isLive,
  keyById,
  madeBy,
  isAdministrator,
  networkLabel,
  networkMode,
  person,
  personByEmail,
  rotationSpec,
  type Expectation,
  type Invitation,
  type Key,
  type Making,
  type Membership,
  type Mode,
  type Model,
  type Network,
  type NewKeySpec,
  type PostRecord,
  type Role,
  type Scopes,
  type ServiceAccount,
} from './model';

// ---------------------------------------------------------------------------
// Steps
// ---------------------------------------------------------------------------

export interface StepContext {
  model: Model;
  real: Real;
  /** What this step does, as resolved: shown in fast-check's counterexample and in the trace. */
  say(text: string): void;
  /** What it obtained (a key, an invitation), appended to what it does. */
  got(text: string): void;
  /** Keys this step created, with the view the server answered: I4 is checked after the step. */
  created: Array<{ key: Key; view: KeyView }>;
}

interface Operation<P> {
  name: string;
  params: fc.Arbitrary<P>;
  /** False when there is nothing to pick from yet (no pending invitation, no earlier POST…). */
  applicable?(model: Readonly<Model>, params: P): boolean;
  /** Resolve the picks, send the request, compare with the model, apply the effect. */
  perform(ctx: StepContext, params: P): Promise<void>;
}

class Step<P> implements fc.AsyncCommand<Model, Real> {
  private description = '';

  constructor(
    private readonly operation: Operation<P>,
    private readonly params: P,
  ) {}

  check(model: Readonly<Model>): boolean {
    return this.operation.applicable?.(model, this.params) ?? true;
  }

  async run(model: Model, real: Real): Promise<void> {
    real.stats.commands += 1;
    (real.script ??= []).push(this.script());
    const ctx: StepContext = {
      model,
      real,
      say: (text) => {
        this.description = text;
        real.trace.push(`${real.trace.length + 1}. ${text}`);
      },
      got: (text) => {
        this.description += ` → ${text}`;
        real.trace[real.trace.length - 1] += ` → ${text}`;
      },
      created: [],
    };
    const started = Date.now();
    await this.operation.perform(ctx, this.params);
    const performed = Date.now();
    real.stats.ms.commands += performed - started;
    // Most telling first: a key listed where it must not be, then advertised ≠ working, then every token.
    if (!model.relax.has('network-lists')) await checkNetworkKeyLists(model, real);
    for (const { key, view } of ctx.created) await checkCreatedKey(model, real, key, view);
    await Promise.all([checkEveryToken(model, real), checkKeyModes(model, real), model.review && checkReviewStates(model, real)]);
    real.stats.ms.checks += Date.now() - performed;
  }

  toString(): string {
    return this.description || `${this.operation.name} (not run)`;
  }

  /** The operation and its picks: what a regression run (ScriptedStep) replays. */
  script(): ScriptedStep {
    return { op: this.operation.name, params: this.params };
  }

  /** Every run (and every shrink) gets its own step, so `toString` tells what that run did. */
  [fc.cloneMethod](): Step<P> {
    return new Step(this.operation, this.params);
  }
}

export interface WeightedCommand {
  name: string;
  weight: number;
  arbitrary: fc.Arbitrary<fc.AsyncCommand<Model, Real>>;
  /** The step with these picks, as the arbitrary would have made it (for scripted regression runs). */
  step(params: unknown): fc.AsyncCommand<Model, Real>;
}

/**
 * One step of a pinned regression run: an operation by name and its picks, exactly as a failing
 * random run printed them (`script()` of each step; see the model test's REGRESSIONS).
 */
export interface ScriptedStep {
  op: string;
  params: unknown;
}

export function command<P>(weight: number, operation: Operation<P>): WeightedCommand {
  return { name: operation.name, weight, arbitrary: operation.params.map((p) => new Step(operation, p)), step: (p) => new Step(operation, p as P) };
}

/** The steps of a script, to run with fc.asyncModelRun like a generated sequence. */
export function scriptedSteps(
  steps: readonly ScriptedStep[],
  commands: readonly WeightedCommand[] = ALL_COMMANDS,
): Array<fc.AsyncCommand<Model, Real>> {
  return steps.map(({ op, params }) => {
    const found = commands.find((c) => c.name === op);
    if (!found) throw new Error(`scripted step: no operation ${op}; known: ${commands.map((c) => c.name).join(', ')}`);
    return found.step(params);
  });
}

/** The steps a run ran, as a script to pin it (JSON, one step a line). */
export function scriptOf(real: Real): string {
  return (real.script ?? []).map((step) => `  ${JSON.stringify(step)},`).join('\n');
}

/**
 * Compare the answer with the model's expectation; count it. True when the
 * operation was carried out (2xx).
 */
export function judge(ctx: StepContext, name: string, answer: Answer, expectation: Expectation, success: number): boolean {
  const carried = answer.status >= 200 && answer.status < 300;
  const what = ctx.real.trace[ctx.real.trace.length - 1] ?? name;
  if (answer.status >= 500) throw violation(`${what}: server error`, answer);
  if (expectation.outcome === 'allowed') {
    if (answer.status !== success) throw violation(`${what}: must be allowed with ${success} (${expectation.why})`, answer);
  } else {
    const refusal = `refused with ${expectation.statuses.join(' or ') || 'a 4xx'} (${expectation.why})`;
    const fits = carried
      ? expectation.outcome === 'either'
      : answer.status >= 400 && (!expectation.statuses.length || expectation.statuses.includes(answer.status));
    if (!fits) throw violation(`${what}: must be ${refusal}`, answer);
    if (carried && answer.status !== success) throw violation(`${what}: must answer ${success} if allowed`, answer);
    const unsaid = refusalUnsaid(expectation, answer);
    if (unsaid) throw violation(`${what}: must be ${refusal}, ${unsaid}`, answer);
  }
  count(ctx, `${name} ${carried ? 'allowed' : 'refused'}`);
  if (!carried && expectation.outcome === 'refused' && expectation.rule) count(ctx, `mode rule: ${expectation.rule} refused`);
  ctx.real.trace[ctx.real.trace.length - 1] += ` [${answer.status}${carried ? '' : `: ${expectation.why}`}]`;
  return carried;
}

/** A refusal that must say why (the field it names, words of its detail) and does not: what it lacks. */
export function refusalUnsaid(expectation: Expectation, answer: Answer): string | undefined {
  if (expectation.outcome !== 'refused' || answer.status < 400) return undefined;
  const problem = answer.body as { detail?: string; errors?: Array<{ path?: string }> } | undefined;
  if (expectation.field !== undefined && problem?.errors?.[0]?.path !== expectation.field) return `naming ${expectation.field} in errors[0].path`;
  if (expectation.detail && !expectation.detail.test(problem?.detail ?? '')) return `its detail matching ${expectation.detail}`;
  return undefined;
}

export function count(ctx: StepContext, outcome: string): void {
  ctx.real.stats.outcomes[outcome] = (ctx.real.stats.outcomes[outcome] ?? 0) + 1;
}

/** Keep a POST that answered 201, byte for byte, for a later replay. */
function remember(model: Model, request: Request, entry: Omit<PostRecord, 'path' | 'body' | 'authorization' | 'idempotencyKey'>): void {
  model.posts.push({ ...entry, path: request.path, body: request.body!, authorization: request.token, idempotencyKey: request.idempotencyKey! });
}

/** A key the server created: into the model; I4 (advertised = working scopes) is checked after the step. */
function keep(ctx: StepContext, view: KeyView, spec: NewKeySpec, made: Making, origin: string): Key {
  const key = addKey(ctx.model, { id: view.id, token: view.token!, spec, made, origin });
  const modes = new Set(Object.keys(key.granted).map((n) => networkMode(ctx.model, n)));
  count(ctx, `mode: ${key.mode} ${key.session ? 'session' : 'key'} made${modes.size > 1 ? ', on live and test networks' : ''}`);
  ctx.got(describeKey(ctx.model, key));
  ctx.created.push({ key, view });
  return key;
}

const nameOf = (model: Model) => `model ${model.tag}`;

// ---------------------------------------------------------------------------
// Own keys: /v1/apikeys
// ---------------------------------------------------------------------------

/**
 * `modes`: scopes that only the mode rules refuse, asked by a key whose scope rules let them
 * through when there is one: a live network and a test one by a key that acts on both (a live
 * session of someone in both, a live super_user key) — only a session's key may span both — or
 * a live network (and sometimes a test one) by a test super_user key, which makes nothing live.
 */
type ScopeRequest = 'copy' | 'none' | { modes: number; role: Role } | Array<{ network: NetworkPick; role: Role }>;

/** A live key whose access reaches networks of both modes, or a live test super_user key: the askers of `modes` scopes. */
function passesScopeRulesAcrossModes(model: Model, key: Key): boolean {
  const access = accessOf(model, key);
  const modes = new Set(model.networks.filter((n) => isAdministrator(model, access, n.id) || n.id in access.scopes).map((n) => n.mode));
  return isLive(model, key) && (modes.size > 1 || (key.superUser && key.mode === 'test'));
}

function acrossModes(model: Model, actor: Key, pick: number, role: Role): Scopes {
  const scopes: Scopes = {};
  const live = model.networks.filter((n) => n.mode === 'live');
  const test = model.networks.filter((n) => n.mode === 'test');
  if (live.length) scopes[live[pick % live.length]!.id] = role;
  // A key acting on both modes asks both; a test one, half the time, its own mode's too.
  if (test.length && (actor.mode === 'live' || pick % 2)) scopes[test[pick % test.length]!.id] = role;
  return scopes;
}

const mintOwnKey = command(3, {
  name: 'mintOwnKey',
  params: fc.record({
    actor: actorPick,
    scopes: fc.oneof(
      fc.constant<ScopeRequest>('copy'),
      fc.constant<ScopeRequest>('none'),
      fc.array(fc.record({ network: networkPick, role: rolePick }), { minLength: 1, maxLength: 2 }),
      fc.record({ modes: fc.nat(), role: rolePick }),
    ),
    superUser: sometimes(5),
  }),
  async perform(ctx, p) {
    const { model } = ctx;
    const askers = typeof p.scopes === 'object' && !Array.isArray(p.scopes) ? model.keys.filter((k) => passesScopeRulesAcrossModes(model, k)) : [];
    const actor = askers.length ? newest(askers, p.actor.key) : pickActor(model, p.actor);
    let scopes: Scopes | undefined;
    if (p.scopes === 'none') scopes = {};
    if (Array.isArray(p.scopes)) {
      scopes = {};
      for (const s of p.scopes) scopes[pickNetwork(model, actor, undefined, s.network).id] ??= s.role;
    } else if (typeof p.scopes === 'object') {
      scopes = acrossModes(model, actor, p.scopes.modes, p.scopes.role);
    }
    const body: Record<string, unknown> = { key_name: nameOf(model) };
    if (scopes) body.scopes = Object.entries(scopes).map(([network_id, role]) => ({ network_id, role }));
    if (p.superUser) body.super_user = true;
    const asked = scopes ? describeAccess(model, { superUser: false, scopes }) : 'a copy of its access';
    ctx.say(`${describeKey(model, actor)} mints own key with ${asked}${p.superUser ? ', super_user' : ''}`);
    const { expectation, spec } = expectMintOwnKey(model, actor, { scopes, superUser: p.superUser });
    const made = madeBy(model, actor, spec.owner);
    const request = post('/apikeys', actor.token, body);
    const answer = await send(ctx.real, request);
    if (judge(ctx, 'mintOwnKey', answer, expectation, 201)) {
      const key = keep(ctx, answer.body as KeyView, spec, made, `minted by ${actor.label} with POST /v1/apikeys`);
      remember(model, request, {
        kind: 'mintOwnKey',
        actorKeyId: actor.id,
        networkId: undefined,
        createdKeyId: key.id,
        answerId: key.id,
        description: `${actor.label} mints ${key.label}`,
      });
    }
  },
});

const listOwnKeys = command(2, {
  name: 'listOwnKeys',
  params: fc.record({ actor: actorPick }),
  async perform(ctx, p) {
    const actor = pickActor(ctx.model, p.actor);
    ctx.say(`${describeKey(ctx.model, actor)} lists own keys`);
    if (isLive(ctx.model, actor)) {
      count(ctx, 'listOwnKeys allowed');
      return checkOwnKeyList(ctx.model, ctx.real, actor);
    }
    const answer = await send(ctx.real, { method: 'GET', path: '/apikeys', token: actor.token });
    judge(ctx, 'listOwnKeys', answer, { outcome: 'refused', statuses: [401], why: 'the calling key is revoked' }, 200);
  },
});

const readOwnKey = command(1, {
  name: 'readOwnKey',
  params: fc.record({ actor: actorPick, target: ownTargetPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const target = pickTarget(model, actor, p.target);
    ctx.say(`${describeKey(model, actor)} reads own key ${describeKey(model, target)}`);
    const answer = await send(ctx.real, { method: 'GET', path: `/apikeys/${target.id}`, token: actor.token });
    if (judge(ctx, 'readOwnKey', answer, expectReadOwnKey(model, actor, target), 200)) {
      checkShownAccess(model, target, answer.body as KeyView, `GET /v1/apikeys/${target.label} by ${actor.label}`);
    }
  },
});

const rotateOwnKey = command(3, {
  name: 'rotateOwnKey',
  params: fc.record({ actor: actorPick, target: ownTargetPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const target = pickTarget(model, actor, p.target);
    ctx.say(`${describeKey(model, actor)} rotates own key ${describeKey(model, target)}`);
    const expectation = expectRotateOwnKey(model, actor, target);
    const made = madeBy(model, actor, target.owner);
    const request = post(`/apikeys/${target.id}/rotate`, actor.token, { grace_period_seconds: 0 });
    const answer = await send(ctx.real, request);
    if (judge(ctx, 'rotateOwnKey', answer, expectation, 201)) {
      const spec = rotationSpec(model, target);
      const key = keep(ctx, answer.body as KeyView, spec, made, `rotated from ${target.label} by ${actor.label} with POST /v1/apikeys/{id}/rotate`);
      key.endInherited = true;
      applyRotation(target, key.id);
      remember(model, request, {
        kind: 'rotateOwnKey',
        actorKeyId: actor.id,
        networkId: undefined,
        createdKeyId: key.id,
        answerId: key.id,
        description: `${actor.label} rotates ${target.label} into ${key.label}`,
      });
    }
  },
});

const revokeOwnKey = command(2, {
  name: 'revokeOwnKey',
  params: fc.record({ actor: actorPick, target: ownTargetPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const target = pickTarget(model, actor, p.target);
    ctx.say(`${describeKey(model, actor)} revokes own key ${describeKey(model, target)}`);
    const answer = await send(ctx.real, { method: 'DELETE', path: `/apikeys/${target.id}`, token: actor.token });
    if (judge(ctx, 'revokeOwnKey', answer, expectRevokeOwnKey(model, actor, target), 200)) applyRevoke(model, target);
  },
});

// ---------------------------------------------------------------------------
// Signing in as a person: /v1/sign-in/email, /v1/sign-in, /v1/sign-out
// ---------------------------------------------------------------------------

/** Ask for a sign-in link for `email` and read it as its owner would: from the mailbox the service's SMTP_URL reaches. */
async function mailedSignInLink(real: Real, email: string): Promise<string> {
  const asked = await send(real, post('/sign-in/email', '', { email }));
  if (asked.status !== 202) throw violation(`POST /v1/sign-in/email for ${email} must answer 202`, asked);
  return real.mail.signInToken(email);
}

const signIn = command(2, {
  name: 'signIn',
  params: fc.record({ person: fc.nat() }),
  applicable: (model) => model.persons.some((x) => !x.operator),
  async perform(ctx, p) {
    const { model, real } = ctx;
    const people = model.persons.filter((x) => !x.operator);
    const signer = people[p.person % people.length]!;
    ctx.say(`${signer.label} signs in with an emailed link${signer.proven ? '' : ' (the first time: it proves the address)'}`);
    const answer = await send(real, post('/sign-in', await mailedSignInLink(real, signer.email), {}));
    if (judge(ctx, 'signIn', answer, { outcome: 'allowed', why: 'a person signs in with their emailed link' }, 201)) {
      const { spec, made } = applySignIn(model, signer);
      keep(ctx, (answer.body as { api_key: KeyView }).api_key, spec, made, `${signer.label}'s session, from POST /v1/sign-in`);
    }
  },
});

/** The service's own origin (its PUBLIC_URL, as the document's `servers` says): where a passkey is made and used. */
async function originOf(real: Real): Promise<string> {
  if (!real.origin) {
    const doc = await send(real, { method: 'GET', path: '/openapi.json', token: '' });
    real.origin = new URL((doc.body as { servers: Array<{ url: string }> }).servers[0]!.url).origin;
  }
  return real.origin;
}

/** Adding a passkey: options, the device makes it, registration. Only a console session may. */
const addPasskey = command(1, {
  name: 'addPasskey',
  params: fc.record({ actor: actorPick, session: usually(4) }),
  async perform(ctx, p) {
    const { model, real } = ctx;
    const sessions = model.keys.filter((k) => k.session && isLive(model, k));
    const actor = p.session && sessions.length ? sessions[p.actor.key % sessions.length]! : pickActor(model, p.actor);
    ctx.say(`${describeKey(model, actor)} adds a passkey`);
    const expectation = expectAddPasskey(model, actor);
    const options = await send(real, post('/me/passkeys/options', actor.token, {}));
    if (!judge(ctx, 'addPasskey', options, expectation, 200)) return;
    const person = model.persons.find((x) => sameOwner(actor.owner, { kind: 'person', label: x.label }))!;
    person.authenticator ??= softAuthenticator(await originOf(real));
    const { challenge_id, options: creation } = options.body as { challenge_id: string; options: Parameters<typeof person.authenticator.create>[0] };
    const made = person.authenticator.create(creation);
    const registered = await send(real, post('/me/passkeys', actor.token, { challenge_id, name: 'Model passkey', response: made }));
    if (registered.status !== 201) throw violation(`${describeKey(model, actor)}'s passkey must be registered (201)`, registered);
  },
});

/** Signing in with a passkey: a session, as an emailed link gives (the person proved the address getting the session that added it). */
const signInWithPasskey = command(2, {
  name: 'signInWithPasskey',
  params: fc.record({ person: fc.nat() }),
  applicable: (model) => model.persons.some((x) => x.authenticator),
  async perform(ctx, p) {
    const { model, real } = ctx;
    const holders = model.persons.filter((x) => x.authenticator);
    const signer = holders[p.person % holders.length]!;
    ctx.say(`${signer.label} signs in with a passkey`);
    const options = await send(real, post('/sign-in/passkey/options', '', {}));
    if (options.status !== 200) throw violation('POST /v1/sign-in/passkey/options must answer 200', options);
    const { challenge_id, options: request } = options.body as { challenge_id: string; options: { challenge: string; rpId: string } };
    const response = signer.authenticator!.get(request);
    const answer = await send(real, post('/sign-in/passkey', '', { challenge_id, response }));
    if (judge(ctx, 'signInWithPasskey', answer, { outcome: 'allowed', why: 'a person signs in with their passkey' }, 201)) {
      const { spec, made } = applySignIn(model, signer);
      keep(ctx, (answer.body as { api_key: KeyView }).api_key, spec, made, `${signer.label}'s session, from POST /v1/sign-in/passkey`);
    }
  },
});

const signOut = command(1, {
  name: 'signOut',
  params: fc.record({ actor: actorPick, session: usually(4) }),
  async perform(ctx, p) {
    const { model } = ctx;
    const sessions = model.keys.filter((k) => k.session && isLive(model, k));
    const actor = p.session && sessions.length ? sessions[p.actor.key % sessions.length]! : pickActor(model, p.actor);
    ctx.say(`${describeKey(model, actor)} signs out`);
    const answer = await send(ctx.real, post('/sign-out', actor.token, {}));
    if (judge(ctx, 'signOut', answer, expectSignOut(model, actor), 200)) actor.ended = true;
  },
});

// ---------------------------------------------------------------------------
// A network's key lifetime limit: PATCH /v1/networks/{n}
// ---------------------------------------------------------------------------

const setKeyLifetime = command(1, {
  name: 'setKeyLifetime',
  params: fc.record({ actor: actorPick, network: networkPick, days: fc.constantFrom<number | null>(null, 1, 30, 365) }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const network = pickNetwork(model, actor, undefined, p.network);
    ctx.say(`${describeKey(model, actor)} sets the key lifetime of network ${network.label} to ${p.days === null ? 'no limit' : `${p.days} days`}`);
    const expectation = expectSetKeyLifetime(model, actor, network.id);
    const answer = await send(ctx.real, {
      method: 'PATCH',
      path: `/networks/${network.id}`,
      token: actor.token,
      body: JSON.stringify({ max_key_lifetime_days: p.days }),
    });
    if (judge(ctx, 'setKeyLifetime', answer, expectation, 200)) {
      const shown = (answer.body as { max_key_lifetime_days: number | null }).max_key_lifetime_days;
      if (shown !== p.days) throw violation(`PATCH /v1/networks/${network.id} set max_key_lifetime_days ${p.days} but answered ${shown}`, answer);
      network.maxKeyLifetimeDays = p.days;
    }
  },
});

// ---------------------------------------------------------------------------
// Network keys: /v1/networks/{n}/apikeys
// ---------------------------------------------------------------------------

const listNetworkKeys = command(1, {
  name: 'listNetworkKeys',
  params: fc.record({ actor: actorPick, network: networkPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const network = pickNetwork(model, actor, undefined, p.network);
    ctx.say(`${describeKey(model, actor)} lists the keys of network ${network.label}`);
    const expectation = expectAdministers(model, actor, network.id);
    if (expectation.outcome === 'allowed') {
      count(ctx, 'listNetworkKeys allowed');
      return checkNetworkKeyList(model, ctx.real, network, actor.token, describeKey(model, actor));
    }
    const answer = await send(ctx.real, { method: 'GET', path: `/networks/${network.id}/apikeys`, token: actor.token });
    judge(ctx, 'listNetworkKeys', answer, expectation, 200);
  },
});

const revokeNetworkKey = command(2, {
  name: 'revokeNetworkKey',
  params: fc.record({ actor: actorPick, target: networkTargetPick, network: networkPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const target = pickTarget(model, actor, p.target);
    const network = pickNetwork(model, actor, target, p.network);
    ctx.say(`${describeKey(model, actor)} revokes ${describeKey(model, target)} in network ${network.label}`);
    const expectation = expectNetworkRevoke(model, actor, network.id, target);
    const answer = await send(ctx.real, { method: 'DELETE', path: `/networks/${network.id}/apikeys/${target.id}`, token: actor.token });
    if (judge(ctx, 'revokeNetworkKey', answer, expectation, 200)) applyNetworkRevoke(model, target, network.id);
  },
});

const rotateNetworkKey = command(3, {
  name: 'rotateNetworkKey',
  params: fc.record({ actor: actorPick, target: networkTargetPick, network: networkPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const target = pickTarget(model, actor, p.target);
    const network = pickNetwork(model, actor, target, p.network);
    ctx.say(`${describeKey(model, actor)} rotates ${describeKey(model, target)} in network ${network.label}`);
    const expectation = expectNetworkRotate(model, actor, network.id, target);
    const made = madeBy(model, actor, target.owner);
    const request = post(`/networks/${network.id}/apikeys/${target.id}/rotate`, actor.token, { grace_period_seconds: 0 });
    const answer = await send(ctx.real, request);
    if (judge(ctx, 'rotateNetworkKey', answer, expectation, 201)) {
      const spec = rotationSpec(model, target);
      const key = keep(ctx, answer.body as KeyView, spec, made, `rotated from ${target.label} by ${actor.label} through network ${network.label}`);
      key.endInherited = true;
      applyRotation(target, key.id);
      remember(model, request, {
        kind: 'rotateNetworkKey',
        actorKeyId: actor.id,
        networkId: network.id,
        createdKeyId: key.id,
        answerId: key.id,
        description: `${actor.label} rotates ${target.label} in ${network.label} into ${key.label}`,
      });
    }
  },
});

// ---------------------------------------------------------------------------
// Keys minted for members and service accounts; service accounts
// ---------------------------------------------------------------------------

/**
 * An administrator mints a key for `holder`, a member or a service account (`path` says which), in
 * `network` (theirs or another): POST …/{path}/{id}/keys, judged against the model; a key made is
 * kept, and the POST remembered for a replay.
 */
async function mintKeyFor(
  ctx: StepContext,
  kind: 'mintMemberKey' | 'mintServiceAccountKey',
  o: {
    actor: Key;
    network: Network;
    holder: Membership | ServiceAccount;
    whom: string;
    role: Role | undefined;
    path: 'members' | 'service-accounts';
  },
): Promise<void> {
  const { model } = ctx;
  const { actor, network } = o;
  const { expectation, spec } = expectMintKeyFor(model, actor, network.id, o.holder, o.role);
  const made = madeBy(model, actor, spec.owner);
  const body: Record<string, unknown> = { key_name: nameOf(model) };
  if (o.role) body.role = o.role;
  const request = post(`/networks/${network.id}/${o.path}/${o.holder.id}/keys`, actor.token, body);
  const answer = await send(ctx.real, request);
  if (!judge(ctx, kind, answer, expectation, 201)) return;
  const key = keep(ctx, answer.body as KeyView, spec, made, `minted for ${o.whom} by ${actor.label} in network ${network.label}`);
  remember(model, request, {
    kind,
    actorKeyId: actor.id,
    networkId: network.id,
    createdKeyId: key.id,
    answerId: key.id,
    description: `${actor.label} mints ${key.label} for ${o.whom}`,
  });
}

const mintMemberKey = command(2, {
  name: 'mintMemberKey',
  params: fc.record({ actor: actorPick, member: memberPick, where: foreignPick, role: optionalRole }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const membership = pickMembership(model, actor, p.member);
    const network = homeOrForeign(model, membership.networkId, p.where.foreign, p.where.index);
    const who = `${membership.person} (${membership.status} ${membership.role} of ${networkLabel(model, membership.networkId)})`;
    ctx.say(`${describeKey(model, actor)} mints a key for member ${who} in network ${network.label}${p.role ? ` as ${p.role}` : ''}`);
    await mintKeyFor(ctx, 'mintMemberKey', { actor, network, holder: membership, whom: membership.person, role: p.role, path: 'members' });
  },
});

const mintServiceAccountKey = command(1, {
  name: 'mintServiceAccountKey',
  params: fc.record({ actor: actorPick, account: fc.nat(), where: foreignPick, role: optionalRole }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const sa = model.serviceAccounts[p.account % model.serviceAccounts.length]!;
    const network = homeOrForeign(model, sa.networkId, p.where.foreign, p.where.index);
    ctx.say(
      `${describeKey(model, actor)} mints a key for service account ${sa.label}${sa.deleted ? ' (deleted)' : ''} in network ${network.label}${p.role ? ` as ${p.role}` : ''}`,
    );
    await mintKeyFor(ctx, 'mintServiceAccountKey', { actor, network, holder: sa, whom: sa.label, role: p.role, path: 'service-accounts' });
  },
});

const createServiceAccount = command(1, {
  name: 'createServiceAccount',
  params: fc.record({ actor: actorPick, network: networkPick, role: rolePick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const network = pickNetwork(model, actor, undefined, p.network);
    model.counter += 1;
    const label = `robot${model.counter}`;
    ctx.say(`${describeKey(model, actor)} creates service account ${label} (${p.role}) in network ${network.label}`);
    const expectation = expectCreateServiceAccount(model, actor, network.id);
    const made = madeBy(model, actor, { kind: 'serviceAccount', label });
    const request = post(`/networks/${network.id}/service-accounts`, actor.token, { name: label, role: p.role });
    const answer = await send(ctx.real, request);
    if (judge(ctx, 'createServiceAccount', answer, expectation, 201)) {
      const created = answer.body as { id: string; api_key: KeyView };
      model.serviceAccounts.push({ id: created.id, label, networkId: network.id, role: p.role, deleted: false });
      const spec = newKeySpec(model, { kind: 'serviceAccount', label }, false, { [network.id]: p.role });
      const key = keep(ctx, created.api_key, spec, made, `${label}’s first key, created by ${actor.label}`);
      remember(model, request, {
        kind: 'createServiceAccount',
        actorKeyId: actor.id,
        networkId: network.id,
        createdKeyId: key.id,
        answerId: created.id,
        description: `${actor.label} creates ${label}`,
      });
    }
  },
});

const deleteServiceAccount = command(1, {
  name: 'deleteServiceAccount',
  params: fc.record({ actor: actorPick, account: fc.nat(), where: foreignPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const sa = model.serviceAccounts[p.account % model.serviceAccounts.length]!;
    const network = homeOrForeign(model, sa.networkId, p.where.foreign, p.where.index);
    ctx.say(`${describeKey(model, actor)} deletes service account ${sa.label}${sa.deleted ? ' (deleted)' : ''} in network ${network.label}`);
    const expectation = expectDeleteServiceAccount(model, actor, network.id, sa);
    const answer = await send(ctx.real, { method: 'DELETE', path: `/networks/${network.id}/service-accounts/${sa.id}`, token: actor.token });
    if (judge(ctx, 'deleteServiceAccount', answer, expectation, 200)) applyDeleteServiceAccount(model, sa);
  },
});

// ---------------------------------------------------------------------------
// Invitations
// ---------------------------------------------------------------------------

const invite = command(3, {
  name: 'invite',
  params: fc.record({
    actor: actorPick,
    network: networkPick,
    /** Someone new, someone with an account who is not in the network, or anyone (members included). */
    whom: fc.record({ kind: fc.constantFrom('new', 'outsider', 'outsider', 'anyone'), index: fc.nat() }),
    role: rolePick,
  }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const network = pickNetwork(model, actor, undefined, p.network);
    const people = model.persons.filter((x) => !x.operator);
    const outsiders = people.filter((x) => !activeMembership(model, x.label, network.id));
    const pool = p.whom.kind === 'outsider' && outsiders.length ? outsiders : people;
    let email: string;
    if (p.whom.kind !== 'new') {
      email = pool[p.whom.index % pool.length]!.email;
    } else {
      model.counter += 1;
      email = `guest${model.counter}-${model.tag}@example.test`;
    }
    const whom = personByEmail(model, email)?.label ?? `new ${email.split('-')[0]}`;
    ctx.say(`${describeKey(model, actor)} invites ${whom} to network ${network.label} as ${p.role}`);
    const expectation = expectInvite(model, actor, network.id, email);
    const request = post(`/networks/${network.id}/invitations`, actor.token, { email, role: p.role });
    const answer = await send(ctx.real, request);
    if (judge(ctx, 'invite', answer, expectation, 201)) {
      // Live mode answers without the token: it is read from the invitee's mailbox when someone accepts.
      const created = answer.body as { id: string; token?: string; email_id: string };
      model.counter += 1;
      const label = `inv#${model.counter}`;
      model.invitations.push({
        id: created.id,
        token: created.token,
        emailId: created.email_id,
        label,
        networkId: network.id,
        email,
        role: p.role,
        sender: actor.owner,
        senderKeyId: actor.id,
        status: 'pending',
        contested: false,
      });
      ctx.got(label);
      remember(model, request, {
        kind: 'invite',
        actorKeyId: actor.id,
        networkId: network.id,
        createdKeyId: undefined,
        answerId: created.id,
        description: `${actor.label} invites ${whom} to ${network.label} (${label})`,
      });
    }
  },
});

function describeInvitation(model: Model, invitation: Invitation): string {
  const whom = personByEmail(model, invitation.email)?.label ?? `new ${invitation.email.split('-')[0]}`;
  const sender = invitation.sender.label;
  return `${invitation.label} (${whom} to ${networkLabel(model, invitation.networkId)} as ${invitation.role}, from ${sender}, ${invitation.status})`;
}

/** Accept with the invitation token alone (`via` undefined) or with an API key and the token in the body. */
async function accept(ctx: StepContext, name: string, invitation: Invitation, via: Key | undefined): Promise<void> {
  const { model } = ctx;
  ctx.say(`${via ? describeKey(model, via) : 'the invitation token alone'} accepts ${describeInvitation(model, invitation)}`);
  const expectation = expectAccept(model, invitation, via);
  const token = (invitation.token ??= await invitationToken(ctx.real, { email_id: invitation.emailId }));
  const request = via ? post('/invitations/accept', via.token, { invitation_token: token }) : post('/invitations/accept', token, {});
  const answer = await send(ctx.real, request);
  if (!judge(ctx, name, answer, expectation, 201)) {
    if (invitation.contested && answer.status === 409) invitation.status = 'revoked';
    return;
  }
  const accepted = answer.body as AcceptedView;
  const { spec, made, person: invitee } = applyAccept(model, invitation, { userId: accepted.member.user.id, memberId: accepted.member.id });
  const key = keep(
    ctx,
    accepted.api_key,
    spec,
    made,
    `${invitee.label}’s key from accepting ${invitation.label} (sent by ${invitation.sender.label})`,
  );
  remember(model, request, {
    kind: 'accept',
    actorKeyId: via?.id,
    networkId: undefined,
    createdKeyId: key.id,
    answerId: key.id,
    description: `${via?.label ?? 'token alone'} accepts ${invitation.label}`,
  });
}

const acceptWithToken = command(2, {
  name: 'acceptWithToken',
  params: fc.record({ invitation: invitationPick }),
  applicable: (model, p) => hasInvitation(model, p),
  perform: (ctx, p) => accept(ctx, 'acceptWithToken', pickInvitation(ctx.model, p.invitation), undefined),
});

const acceptWithKey = command(3, {
  name: 'acceptWithKey',
  // unproven: one of the invitee's keys that does not prove who they are (an administrator
  // minted or rotated it), when they have one: the administrator holding it is the adversary.
  params: fc.record({ invitation: invitationPick, inviteesKey: usually(4), actor: actorPick, unproven: sometimes(2) }),
  applicable: (model, p) => hasInvitation(model, p),
  perform(ctx, p) {
    const { model } = ctx;
    const invitation = pickInvitation(model, p.invitation);
    const invitee = personByEmail(model, invitation.email);
    const theirs = invitee ? model.keys.filter((k) => k.owner.kind === 'person' && k.owner.label === invitee.label) : [];
    const live = theirs.filter((k) => isLive(model, k));
    const unproven = live.filter((k) => !k.provesIdentity);
    const pool = p.unproven && unproven.length ? unproven : p.actor.anyKey ? theirs : live;
    const via = p.inviteesKey && pool.length ? newest(pool, p.actor.key) : pickActor(model, p.actor);
    return accept(ctx, 'acceptWithKey', invitation, via);
  },
});

// ---------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------

const changeRole = command(3, {
  name: 'changeRole',
  params: fc.record({ actor: actorPick, member: memberPick, where: foreignPick, role: rolePick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const membership = pickMembership(model, actor, p.member);
    const network = homeOrForeign(model, membership.networkId, p.where.foreign, p.where.index);
    const verb = p.role === 'read_only' ? 'demotes' : 'promotes';
    ctx.say(
      `${describeKey(model, actor)} ${verb} ${membership.person} (${membership.status} ${membership.role} of ${networkLabel(model, membership.networkId)}) to ${p.role} in network ${network.label}`,
    );
    const expectation = expectChangeRole(model, actor, network.id, membership, p.role);
    const request = {
      method: 'PATCH' as const,
      path: `/networks/${network.id}/members/${membership.id}`,
      token: actor.token,
      body: JSON.stringify({ role: p.role }),
    };
    const answer = await send(ctx.real, request);
    if (judge(ctx, 'changeRole', answer, expectation, 200)) applyChangeRole(model, membership, p.role);
  },
});

const removeMember = command(2, {
  name: 'removeMember',
  params: fc.record({ actor: actorPick, member: memberPick, where: foreignPick }),
  async perform(ctx, p) {
    const { model } = ctx;
    const actor = pickActor(model, p.actor);
    const membership = pickMembership(model, actor, p.member);
    const network = homeOrForeign(model, membership.networkId, p.where.foreign, p.where.index);
    ctx.say(
      `${describeKey(model, actor)} removes ${membership.person} (${membership.status} ${membership.role} of ${networkLabel(model, membership.networkId)}) from network ${network.label}`,
    );
    const expectation = expectRemoveMember(model, actor, network.id, membership);
    const answer = await send(ctx.real, { method: 'DELETE', path: `/networks/${network.id}/members/${membership.id}`, token: actor.token });
    if (judge(ctx, 'removeMember', answer, expectation, 200)) applyRemoveMember(model, membership);
  },
});

// ---------------------------------------------------------------------------
// Replays and the database-only multi-network key
// ---------------------------------------------------------------------------

function answerIdOf(kind: PostRecord['kind'], body: unknown): string | undefined {
  const b = body as { id?: string; api_key?: { id?: string } } | undefined;
  return kind === 'accept' ? b?.api_key?.id : b?.id;
}

const replay = command(3, {
  name: 'replay',
  // refused: among the POSTs whose caller still authenticates but may no longer make them (when
  // there are any): what a replay must not hand out is found sooner than by waiting for a random
  // replay to hit one. (A revoked caller's replay is refused before any replay logic runs.)
  params: fc.record({ post: recentPick, refused: sometimes(2) }),
  applicable: (model) => model.posts.length > 0,
  async perform(ctx, p) {
    const { model } = ctx;
    const refused = model.posts.filter((r) => {
      const actor = r.actorKeyId ? keyById(model, r.actorKeyId) : undefined;
      return actor !== undefined && isLive(model, actor) && expectReplay(model, r).outcome === 'refused';
    });
    const record = newest(p.refused && refused.length ? refused : model.posts, p.post);
    const actor = record.actorKeyId ? keyById(model, record.actorKeyId) : undefined;
    ctx.say(`${actor ? describeKey(model, actor) : 'the invitation token'} replays «${record.description}» (same Idempotency-Key)`);
    const expectation = expectReplay(model, record);
    const answer = await send(ctx.real, {
      method: 'POST',
      path: record.path,
      token: record.authorization,
      body: record.body,
      idempotencyKey: record.idempotencyKey,
    });
    if (judge(ctx, `replay ${record.kind}`, answer, expectation, 201)) {
      if (answer.headers.get('idempotent-replayed') !== 'true')
        throw violation(`replay of «${record.description}» answered 201 without Idempotent-Replayed: true`, answer);
      if (answerIdOf(record.kind, answer.body) !== record.answerId)
        throw violation(`replay of «${record.description}» answered something else than the stored answer`, answer);
    }
  },
});

/**
 * A person's key on all their networks at once, of either mode. No API call makes one (every
 * creation is bounded by one creator key's networks, and a key other than a session's has one
 * mode), but the rulebook handles them (network revoke takes one scope away; network rotate
 * refuses them; a scope on a network of the other mode is dropped: a test key never acts on a
 * live network), and the CLI or a version from before modes could have made them: the model
 * inserts one straight into the database — dave's on a live and a test network, alice's test key
 * on two live ones. (A test deployment, where a live token is refused, gets test keys only.)
 */
const seedMultiNetworkKey = command(1, {
  name: 'seedMultiNetworkKey',
  params: fc.record({ person: fc.nat(), mode: fc.constantFrom<Mode>('live', 'test') }),
  applicable: (model) => multiNetworkPeople(model).length > 0,
  async perform(ctx, p) {
    const { model, real } = ctx;
    const people = multiNetworkPeople(model);
    const who = people[p.person % people.length]!;
    const granted: Scopes = {};
    for (const m of model.memberships) if (m.person === who && m.status === 'active') granted[m.networkId] = m.role;
    const environment = model.appMode === 'live' ? p.mode : 'test';
    const token = generateApiKeyToken(environment);
    const id = newId('apiKey');
    await real.database`insert into api_keys (id, name, token_hash, start, environment, user_id)
      values (${id}, ${nameOf(model)}, ${hashToken(token)}, ${tokenStart(token)}, ${environment}, ${person(model, who).userId})`;
    for (const [networkId, role] of Object.entries(granted)) {
      await real.database`insert into api_key_scopes (key_id, network_id, role) values (${id}, ${networkId}, ${role}::"role")`;
    }
    const key = addKey(model, {
      id,
      token,
      spec: { owner: { kind: 'person', label: who }, superUser: false, granted, mode: environment },
      // No key of theirs made it: it does not prove who they are (identifies_owner defaults to false).
      made: { creatorAccess: { superUser: true, scopes: {}, mode: model.appMode }, provesIdentity: false },
      origin: `a multi-network key of ${who} put in the database`,
    });
    ctx.say(`the database gets a multi-network key ${describeKey(model, key)}`);
  },
});

function multiNetworkPeople(model: Readonly<Model>): string[] {
  return model.persons
    .filter((x) => !x.operator && model.memberships.filter((m) => m.person === x.label && m.status === 'active').length >= 2)
    .map((x) => x.label);
}

/** Every operation, by name (CREDENTIALS_MODEL_COMMANDS selects a subset). */
export const ALL_COMMANDS: WeightedCommand[] = [
  mintOwnKey,
  listOwnKeys,
  readOwnKey,
  rotateOwnKey,
  revokeOwnKey,
  listNetworkKeys,
  revokeNetworkKey,
  rotateNetworkKey,
  mintMemberKey,
  mintServiceAccountKey,
  createServiceAccount,
  deleteServiceAccount,
  invite,
  acceptWithToken,
  acceptWithKey,
  changeRole,
  removeMember,
  replay,
  seedMultiNetworkKey,
  signIn,
  signOut,
  addPasskey,
  signInWithPasskey,
  setKeyLifetime,
];
