/**
 * The invariants, checked over HTTP after every step against the model
 * (docs/keys-and-roles.md; docs/SECURITY.md, the invariants 1–8).
 */
import { inBatches, listAll, send, violation, type KeyView, type MeView, type Real, type ScopeView } from './http';
import {
  accessOf,
  covers,
  describeAccess,
  describeKey,
  isLive,
  isNetworkKey,
  isOperatorKey,
  keyById,
  keyLifetimeBound,
  ownerId,
  sameOwner,
  shownAccess,
  tokenMode,
  within,
  type Access,
  type Key,
  type Mode,
  type Model,
  type Network,
} from './model';

/** What a view shows (a key view says its mode; for GET /v1/me, the token does). */
function accessFromView(view: { super_user: boolean; scopes: ScopeView[]; environment?: Mode }, mode = view.environment): Access {
  const scopes = Object.fromEntries(view.scopes.map((s) => [s.network_id, s.role]));
  return mode ? { superUser: view.super_user, scopes, mode } : { superUser: view.super_user, scopes };
}

/** What a view shows agrees with the model (not compared while `working-scopes` is relaxed). */
function agrees(model: Model, shown: Access, modelled: Access): boolean {
  if (model.relax.has('working-scopes')) return true;
  const text = (x: Access) => JSON.stringify([x.superUser, Object.entries(x.scopes).sort()]);
  return text(shown) === text(modelled);
}

/**
 * A key view (GET /v1/apikeys/{id}, list items) shows the key's modelled scopes (capped by its
 * owner's standing, whatever their networks' mode: `shownAccess`) and its mode.
 */
export function checkShownAccess(model: Model, key: Key, view: KeyView, what: string): void {
  if (view.environment !== key.mode) throw violation(`${what} shows ${key.label} as a ${view.environment} key; the model says ${key.mode}`);
  if (isLive(model, key) && !agrees(model, accessFromView(view), shownAccess(model, key))) {
    throw violation(
      `${what} shows ${key.label} with ${JSON.stringify(view.scopes)}; the model says ${describeAccess(model, shownAccess(model, key))}`,
    );
  }
}

/**
 * Every key the model holds has the mode the model predicted when it was made: its token's
 * prefix (`sk_test_`, `sk_live_`) and `api_keys.environment` (read in one query).
 */
export async function checkKeyModes(model: Model, real: Real): Promise<void> {
  const stored = new Map(
    (
      await real.database<
        Array<{ id: string; environment: Mode }>
      >`select id, environment from api_keys where id = any(${model.keys.map((k) => k.id)})`
    ).map((row) => [row.id, row.environment]),
  );
  real.stats.checks += 1;
  for (const key of model.keys) {
    if (tokenMode(key.token) !== key.mode || stored.get(key.id) !== key.mode) {
      throw violation(
        `${key.label} (${key.origin}) must be a ${key.mode} key; its token starts ${key.token.slice(0, 8)} and the database says ${stored.get(key.id) ?? 'nothing'}`,
      );
    }
  }
}

/**
 * I1/I2/I3: every token the model holds answers GET /v1/me with exactly its modelled
 * access (401 once revoked), and never more than its creator held when it was made.
 */
export async function checkEveryToken(model: Model, real: Real): Promise<void> {
  // A revoked key stays revoked in every implementation we can imagine: once seen answering
  // 401 it is asked again every fifth step only, which keeps steps cheap.
  const everything = real.trace.length % 5 === 0;
  const keys = model.keys.filter((k) => everything || !real.seenRevoked.has(k.id));
  await inBatches(keys, 16, async (key) => {
    const answer = await send(real, { method: 'GET', path: '/me', token: key.token });
    real.stats.checks += 1;
    if (!isLive(model, key)) {
      if (answer.status !== 401) throw violation(`GET /v1/me with ${key.label} (revoked in the model; ${key.origin}) must answer 401`, answer);
      real.seenRevoked.add(key.id);
      return;
    }
    if (answer.status !== 200) throw violation(`GET /v1/me with live key ${describeKey(model, key)} must answer 200`, answer);
    const seen = accessFromView(answer.body as MeView, key.mode);
    if (!within(seen, key.creatorAccess)) {
      throw violation(
        `${key.label} (${key.origin}) acts with ${describeAccess(model, seen)}, beyond what its creator held when it was made (${describeAccess(model, key.creatorAccess)})`,
        answer,
      );
    }
    if (!agrees(model, seen, accessOf(model, key))) {
      throw violation(
        `GET /v1/me with ${key.label} (${key.origin}) shows ${describeAccess(model, seen)}; the model says ${describeAccess(model, accessOf(model, key))}`,
        answer,
      );
    }
  });
}

/**
 * I2/I8: GET /networks/{n}/apikeys lists exactly n's network keys (of active members
 * and of n's service accounts, never super_user, never the operator's), each showing
 * only its scope on n.
 */
export async function checkNetworkKeyList(model: Model, real: Real, network: Network, token: string, caller: string): Promise<void> {
  const what = `GET /networks/${network.label}/apikeys by ${caller}`;
  const list = await listAll<KeyView>(real, `/networks/${network.id}/apikeys`, token);
  real.stats.checks += 1;
  if (list.status !== 200) throw violation(`${what} must answer 200: ${list.text}`);
  for (const item of list.items) {
    const key = keyById(model, item.id);
    const name = key ? `${describeKey(model, key)} (${key.origin})` : item.id;
    if (item.super_user) throw violation(`${what} lists super_user key ${name}`);
    const foreign = item.scopes.filter((s) => s.network_id !== network.id);
    if (foreign.length) throw violation(`${what} shows ${name} with scopes on other networks: ${JSON.stringify(item.scopes)}`);
    if (!key) throw violation(`${what} lists ${item.id}, a key the model does not know`);
    if (!isLive(model, key)) continue;
    if (!isNetworkKey(model, key, network.id)) throw violation(`${what} lists ${name}, which is not a key of ${network.label}`);
    if (item.environment !== key.mode) throw violation(`${what} shows ${name} as a ${item.environment} key; the model says ${key.mode}`);
    const expected: Access = { superUser: false, scopes: { [network.id]: shownAccess(model, key).scopes[network.id]! }, mode: key.mode };
    if (!agrees(model, accessFromView(item), expected)) {
      throw violation(`${what} shows ${name} with ${JSON.stringify(item.scopes)}; the model says ${describeAccess(model, expected)}`);
    }
  }
  const listed = new Set(list.items.map((i) => i.id));
  for (const key of model.keys) {
    if (isLive(model, key) && isNetworkKey(model, key, network.id) && !listed.has(key.id)) {
      throw violation(`${what} leaves out ${describeKey(model, key)} (${key.origin})`);
    }
  }
}

/** Every network's key list, read with the bootstrap key. */
export async function checkNetworkKeyLists(model: Model, real: Real): Promise<void> {
  await inBatches(model.networks, 3, (network) => checkNetworkKeyList(model, real, network, real.bootstrapToken, 'the operator'));
}

/**
 * I1: GET /v1/apikeys by a key lists only its owner's keys that it covers, and (for
 * everyone but the operator, whose keys pile up across runs) all of them.
 */
export async function checkOwnKeyList(model: Model, real: Real, actor: Key): Promise<void> {
  const operator = isOperatorKey(model, actor);
  const list = await listAll<KeyView>(real, '/apikeys', actor.token, operator);
  real.stats.checks += 1;
  if (list.status !== 200) throw violation(`GET /v1/apikeys with live key ${describeKey(model, actor)} must answer 200: ${list.text}`);
  const access = accessOf(model, actor);
  const who = describeKey(model, actor);
  for (const item of list.items) {
    if (item.owner.id !== ownerId(model, actor.owner)) throw violation(`GET /v1/apikeys with ${who} lists ${item.id}, a key of another owner`);
    const key = keyById(model, item.id);
    if (!key) {
      // Another run's key of the operator: what it shows must still be within the caller's access.
      if (!within(accessFromView(item), access)) {
        throw violation(
          `GET /v1/apikeys with ${who} lists ${item.id} (${JSON.stringify({ super_user: item.super_user, scopes: item.scopes })}), which it does not cover`,
        );
      }
      continue;
    }
    if (!covers(model, actor, key))
      throw violation(`GET /v1/apikeys with ${who} lists ${describeKey(model, key)} (${key.origin}), which it does not cover`);
    checkShownAccess(model, key, item, `GET /v1/apikeys with ${who}`);
  }
  if (operator) return;
  const listed = new Set(list.items.map((i) => i.id));
  for (const key of model.keys) {
    if (sameOwner(key.owner, actor.owner) && covers(model, actor, key) && !listed.has(key.id)) {
      throw violation(`GET /v1/apikeys with ${who} leaves out ${describeKey(model, key)}, which it covers`);
    }
  }
}

const DAY_MS = 86_400_000;

/**
 * A new key's end keeps its networks' key lifetime limit (rulebook "Creating keys", 4): with a
 * limit, it ends within it — and, asked for no end (the model's mints never ask), at the limit's
 * end; without one it does not end. A session ends on its own clock; a rotation's successor keeps
 * its predecessor's end, so only the limit is checked for it.
 */
function checkKeyEnd(model: Model, key: Key, view: KeyView): void {
  const bound = keyLifetimeBound(model, key.granted);
  const end = view.expires_at === null ? null : Date.parse(view.expires_at);
  const now = Date.now();
  const chosenByService = !key.session && !key.endInherited;
  if (bound !== undefined) {
    if (end === null || end > now + bound * DAY_MS + 5_000) {
      throw violation(`${key.label} (${key.origin}) ends ${view.expires_at ?? 'never'}; its networks let a key live at most ${bound} days`);
    }
    if (chosenByService && end < now + bound * DAY_MS - 10 * 60_000) {
      throw violation(
        `${key.label} (${key.origin}) asked for no end, so must get the longest its networks allow (${bound} days), not ${view.expires_at}`,
      );
    }
  } else if (chosenByService && end !== null) {
    throw violation(`${key.label} (${key.origin}) asked for no end and its networks set no limit, yet it ends ${view.expires_at}`);
  }
}

/**
 * I4: a created key's advertised scopes are its working scopes: the creation answer,
 * GET /v1/me with the new token and GET /v1/apikeys/{id} with it agree with the model —
 * and so does its mode (token prefix and `environment`), which the model predicted.
 */
export async function checkCreatedKey(model: Model, real: Real, key: Key, view: KeyView): Promise<void> {
  const expected = accessOf(model, key);
  const advertised = accessFromView(view);
  if (view.owner.id !== ownerId(model, key.owner))
    throw violation(`${key.label} was created for owner ${view.owner.id}; the model says ${ownerId(model, key.owner)}`);
  if (tokenMode(view.token!) !== key.mode || view.environment !== key.mode) {
    throw violation(
      `${key.label} (${key.origin}) must be a ${key.mode} key; it was answered as ${view.environment}, its token starting ${view.token!.slice(0, 8)}`,
    );
  }
  if (!agrees(model, advertised, shownAccess(model, key)) || !agrees(model, advertised, expected)) {
    throw violation(
      `${key.label} (${key.origin}) was answered 201 advertising ${describeAccess(model, advertised)}; the model says ${describeAccess(model, expected)}`,
    );
  }
  checkKeyEnd(model, key, view);
  const me = await send(real, { method: 'GET', path: '/me', token: key.token });
  const read = await send(real, { method: 'GET', path: `/apikeys/${key.id}`, token: key.token });
  real.stats.checks += 2;
  if (me.status !== 200 || !agrees(model, accessFromView(me.body as MeView), advertised)) {
    throw violation(`${key.label} (${key.origin}) advertised ${describeAccess(model, advertised)} but GET /v1/me with its token disagrees`, me);
  }
  if (read.status !== 200 || !agrees(model, accessFromView(read.body as KeyView), advertised)) {
    throw violation(
      `${key.label} (${key.origin}) advertised ${describeAccess(model, advertised)} but GET /v1/apikeys/${key.id} with its token disagrees`,
      read,
    );
  }
}
