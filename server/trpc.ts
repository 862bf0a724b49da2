import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { initTRPC } from '@trpc/server';
import { middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { database, type Database } from '@/db/client';
import { config, type Config } from './config';
import { boundToCredential } from './auth/credential-lock';
import { actsInMode, authenticate, bearerToken, type Principal } from './auth/principal';
import { roleAtLeast, type Role } from '@/domain/roles';
import { AppError, badRequest, forbidden, unauthorized, type ErrorKind } from './errors';
import { refuseUnsafeInput } from './http/body';
import { clientAddressOf, compileTrustedProxies, lockoutKeyOf, type TrustedProxies } from './http/client-address';
import { idempotently, type IdempotencyRequest } from './http/idempotency';
import { setEtagOf } from './http/locking';
import { currentLimits } from './http/limits';
import { problemFromError, toTRPCError, type Problem } from './http/problem';
import { rateLimitHeaders } from './http/rate-limit';
import { paceRefusal } from './http/refusal-pacing';
import {
  ownerBucket,
  ownerBucketOf,
  spendBeforeLookup,
  spendNetworkBudget,
  spendOwnerBudget,
  spendPasskeyOptions,
  spendSignInRequest,
} from './http/request-budget';
import { findInvitationByToken, INVITATION_TOKEN_PATTERN, type InvitationRow } from './services/invitations/find-invitations';
import { findNetwork } from './services/networks/find-network';
import { verifyPasskeyAssertion } from './services/passkeys/passkey-sign-in';
import { findSignInLinkByToken } from './services/sign-in/find-sign-in-link';
import { SIGN_IN_TOKEN_PATTERN } from './services/sign-in/sign-in-link';
import { readUnsubscribeToken } from './services/notifications/unsubscribe-token';
import { findVoiceConsentByToken, linkWorks, type VoiceConsentRow } from './services/voice-consents/find-voice-consents';
import { VOICE_CONSENT_TOKEN_PATTERN } from '@/domain/voice-consent';
import { CREATIVE_REVIEW_TOKEN_PATTERN } from '@/domain/creative-review';
import type { CreativeRow } from './services/creatives/complete-creative';
import { findCreativeByReviewToken } from './services/creatives/find-creatives';
import { reviewLinkSuperseded, reviewLinkWorks } from './services/creatives/review-link';
import type { NotificationKind } from '@/domain/notifications';
import type { HttpOut } from './http/answer';

export interface Context {
  db: Database;
  requestId: string;
  clientAddress: string;
  header(name: string): string | undefined;
  http: HttpOut;
  /** Filled by the authentication middleware. */
  principal?: Principal;
  /** An invitation token as the bearer: the invitation authenticated the request (`row` as the gate read it). */
  invitation?: { id: string; token: string; row: InvitationRow };
  /** A sign-in link's token as the bearer (`POST /v1/sign-in`). */
  signInLink?: { id: string; token: string };
  /** An unsubscribe link's token, verified: whose notices of which kind to turn off. */
  unsubscribe?: { userId: string; kind: NotificationKind };
  /** A voice consent link's token as the bearer: the consent it opens (`row` as the gate read it). */
  voiceConsent?: { id: string; row: VoiceConsentRow };
  /** A creative review link's token as the bearer: the revision it opens (`row` as the gate read it). */
  creativeReview?: { id: string; row: CreativeRow };
  /**
   * The credential was used up by a request of its own (a review link superseded by its own request
   * for changes): it may replay what it was answered under an Idempotency-Key, nothing more — this is
   * the refusal anything else gets (server/http/idempotency.ts).
   */
  spentCredential?: AppError;
  /** What the request log line reports. */
  log: { keyId?: string; route?: string };
  /** The transport already refused NUL in every part of the input (/v1 does, before routing). */
  inputChecked: boolean;
  /** The Idempotency-Key of a /v1 POST (read by the REST layer; see server/http/idempotency.ts). */
  idempotency?: IdempotencyRequest;
  /** The request's API key, looked up once however many calls a console batch holds (`authenticateOnce`). */
  authentication: RequestAuthentication;
}

/** One lookup of the Authorization header's key per HTTP request, shared by the calls of a batch. */
export interface RequestAuthentication {
  principal?: Promise<Principal>;
}

/** State the HTTP layer keeps on a request (request id, log fields, the Idempotency-Key it read). */
export interface RequestState {
  requestId: string;
  log: Context['log'];
  http: HttpOut;
  inputChecked?: boolean;
  idempotency?: IdempotencyRequest;
  authentication: RequestAuthentication;
}

export type AppRequest = IncomingMessage & { state?: RequestState; body?: unknown };

export function requestState(req: AppRequest): RequestState {
  req.state ??= { requestId: randomUUID(), log: {}, http: { headers: {} }, authentication: {} };
  return req.state;
}

const trustedByConfig = new WeakMap<Config, TrustedProxies>();

/** TRUSTED_PROXIES, compiled once per configuration (startService checks it at start). */
function trustedProxies(): TrustedProxies {
  const c = config();
  let trust = trustedByConfig.get(c);
  if (!trust) trustedByConfig.set(c, (trust = compileTrustedProxies(c.TRUSTED_PROXIES)));
  return trust;
}

/**
 * A request's header by name. Returned, not assigned to a name: `npm start` runs under tsx, which
 * keeps names by wrapping every named function it creates in a `defineProperty` — per request,
 * for a closure made per request (docs/PERFORMANCE.md, "/v1 at the speed of a bare server").
 */
function headerReader(req: AppRequest): Context['header'] {
  return (name) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
}

/** The context for one HTTP request, on either transport. */
export function createContext({ req }: { req: AppRequest }): Context {
  const state = requestState(req);
  return {
    db: database(),
    requestId: state.requestId,
    clientAddress: clientAddressOf(req, trustedProxies()),
    header: headerReader(req),
    http: state.http,
    log: state.log,
    inputChecked: state.inputChecked === true,
    idempotency: state.idempotency,
    authentication: state.authentication,
  };
}

export type ErrorShapeData = { problem: Problem };

/** The gate a procedure passes before its handler; each brings its own error responses (server/openapi.ts). */
export type Gate =
  | 'authenticated'
  | 'network'
  | 'super-user'
  | 'invitation'
  | 'sign-in-request'
  | 'sign-in-link'
  | 'passkey-options'
  | 'passkey'
  | 'unsubscribe'
  | 'voice-consent-link'
  | 'creative-review-link';

/**
 * A procedure's meta: its OpenAPI operation, the gate (set by the procedure builders below, never
 * by hand) and `errors`, when each error its handler and services can throw occurs. The document
 * lists exactly these, the gate's and the transport's; tests/declared-errors.test.ts keeps
 * `errors` equal to what the code can throw.
 */
export interface RouteMeta extends OpenApiMeta {
  gate?: Gate;
  errors?: Partial<Record<ErrorKind, string>>;
  /**
   * The operation may take access away from its own caller's owner (revoking or rotating a key,
   * changing or ending a membership, deleting a service account): its transactions hold the
   * caller's credential lock exclusively (server/auth/credential-lock.ts).
   */
  withdrawsCredentials?: boolean;
  /**
   * A POST that writes nothing (the campaign preview: audio made anew each time). It takes no
   * Idempotency-Key — there is no answer to repeat — so it never waits, holding a transaction.
   */
  changesNothing?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<RouteMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const problem = problemFromError(error);
      // httpStatus as the transports answer (problem.status), not tRPC's guess from its code.
      return { ...shape, data: { ...shape.data, httpStatus: problem.status, stack: undefined, problem } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Domain errors thrown by services become TRPCErrors with the right status. */
const base = t.procedure.use(async ({ next, path, meta, ctx, getRawInput }) => {
  ctx.log.route = meta?.openapi ? `${meta.openapi.method} ${meta.openapi.path}` : path;
  // /v1 checks the URL and body while reading them (parseJsonBody); this covers the console
  // transport, whose adapter reads its own: no NUL, no nesting past MAX_INPUT_DEPTH.
  if (!ctx.inputChecked) {
    try {
      refuseUnsafeInput(await getRawInput());
    } catch (error) {
      throw error instanceof AppError ? toTRPCError(error) : error;
    }
  }
  const result = await next();
  if (result.ok) setEtagOf(ctx.http, result.data);
  else if (result.error.cause instanceof AppError) {
    // A budget refusal is answered after a hold, the same on both transports (refusal-pacing.ts).
    await paceRefusal(result.error.cause, ctx.http, ctx.http.headers);
    throw toTRPCError(result.error.cause);
  }
  return result;
});

/**
 * The one gate every credential passes (API keys, and invitation tokens on
 * accept): refused while the client's address is locked out after failed
 * attempts; then the credential's own rate-limit bucket is spent BEFORE it is
 * looked up (server/http/request-budget.ts), so a spent key costs no database
 * work; a refused credential counts against the address; an accepted one spends
 * its owner's budget too (`owner`: none for an invitation token). Nothing — an
 * Idempotency-Key included — skips it.
 */
async function admit<T>(
  ctx: Context,
  credential: () => Promise<T>,
  owner: (caller: T) => string | undefined,
  /** The kind a refused credential is answered with: 404 for a consent link, which is not found rather than unauthorized. */
  refusedAs: ErrorKind = 'unauthorized',
): Promise<T> {
  const limits = currentLimits();
  const addressKey = failedAuthenticationKey(ctx);
  if (limits) refuseLockedOut(limits, addressKey);
  const presented = limits && spendBeforeLookup(limits, ctx.http.headers, ctx.header('authorization'));
  let caller: T;
  try {
    caller = await credential();
  } catch (error) {
    // Only a refused credential counts as a failed attempt: a database outage must not lock clients out.
    // The 401 reports that budget: how many more failures this address has before the lockout.
    // A batch's calls share one lookup and its one refusal: that counts once.
    if (limits && error instanceof AppError && error.kind === refusedAs && !countedFailures.has(error)) {
      countedFailures.add(error);
      Object.assign(ctx.http.headers, rateLimitHeaders(limits.authFailures.consume(addressKey)));
    }
    throw error;
  }
  if (limits) spendOwnerBudget(limits, ctx.http.headers, presented, owner(caller));
  return caller;
}

const countedFailures = new WeakSet<AppError>();

/** 429 while the address is locked out after failed authentication attempts. */
function refuseLockedOut(limits: NonNullable<ReturnType<typeof currentLimits>>, addressKey: string): void {
  if (!limits.authFailures.exhausted(addressKey)) return;
  const decision = limits.authFailures.consume(addressKey);
  throw new AppError('rate-limited', 'Too many failed authentication attempts from this address. Wait and retry.', {
    headers: { 'Retry-After': String(decision.retryAfterSeconds), ...rateLimitHeaders(decision) },
    pace: { line: addressKey, waitMs: decision.waitMs, everyMs: decision.tokenMs },
  });
}

/**
 * The key of the request's Authorization header, looked up once per HTTP request: the calls of a
 * console batch share the lookup (and its refusal) instead of each running it.
 */
function authenticateOnce(ctx: Context): Promise<Principal> {
  return (ctx.authentication.principal ??= authenticate(ctx.header('authorization')));
}

const failedAuthenticationKey = (ctx: Context) => `auth-fail:${lockoutKeyOf(ctx.clientAddress)}`;

/**
 * The gate for a request that names no operation (an unknown /v1 path), so that its 404 carries
 * RateLimit-* like every answer and a credential is judged as everywhere: a presented credential
 * passes `admit` (refused → 401, counted against the address; accepted → one token of its key's
 * bucket), and a request without one reports its address's failed-authentication budget.
 */
export async function admitWithoutOperation(ctx: Context): Promise<void> {
  const limits = currentLimits();
  if (!ctx.header('authorization')) {
    if (limits) Object.assign(ctx.http.headers, rateLimitHeaders(limits.authFailures.peek(failedAuthenticationKey(ctx))));
    return;
  }
  await admit(ctx, () => authenticateOnce(ctx), ownerBucketOf);
}

/** Any valid API key, within its rate limit. */
const authenticated = base.use(async ({ ctx, next }) => {
  const principal = await admit(ctx, () => authenticateOnce(ctx), ownerBucketOf);
  ctx.log.keyId = principal.keyId;
  return next({ ctx: { principal } });
});

/**
 * A mutation's database handle, set by each gate: every transaction opened on it first re-checks,
 * under the caller's credential lock, what the gate checked — the key's role on `networkId`, or
 * its whole access — so the write commits only while that still holds (server/auth/credential-lock.ts).
 * A query reads the pool.
 */
function decidedAtCommit(ctx: Context, principal: Principal, type: string, meta: RouteMeta | undefined, networkId?: string): Database {
  if (type !== 'mutation') return ctx.db;
  return boundToCredential(ctx.db, principal, { mode: meta?.withdrawsCredentials ? 'exclusive' : 'shared', networkId });
}

/** Any valid API key, its writes decided at commit. */
const authenticatedWrites = authenticated.use(({ ctx, next, type, meta }) => next({ ctx: { db: decidedAtCommit(ctx, ctx.principal, type, meta) } }));

/** Gates whose POSTs take no Idempotency-Key: no credential owns the key, or a retry needs a new challenge. */
const WITHOUT_IDEMPOTENCY: ReadonlySet<Gate | undefined> = new Set(['sign-in-request', 'passkey-options', 'passkey', 'unsubscribe']);

/**
 * Whether a POST takes an Idempotency-Key: not one that writes nothing (a repeat is harmless), nor
 * one without a caller (asking for a sign-in link or a passkey challenge; an unsubscribe link, the
 * same change however often it is sent), nor a passkey sign-in
 * (its challenge works once: a retry starts again, and no session's token is kept for a replay).
 */
export const takesIdempotencyKey = (meta: RouteMeta | undefined) => !meta?.changesNothing && !WITHOUT_IDEMPOTENCY.has(meta?.gate);

/**
 * An Idempotency-Key's replay or run (server/http/idempotency.ts). Always the
 * LAST middleware before a procedure's input, so that a replay passes every
 * check a new request passes: authentication, rate limit, role.
 */
export const idempotent = t.middleware(({ ctx, type, meta, next }) => {
  if (type !== 'mutation' || !ctx.idempotency || !takesIdempotencyKey(meta)) {
    if (ctx.spentCredential) throw ctx.spentCredential;
    return next();
  }
  return idempotently(
    ctx,
    (db) => next({ ctx: { db } }),
    (data) => ({ ok: true as const, data, ctx, marker: middlewareMarker }),
  );
});

/** Any valid API key; applies the per-key rate limit. */
export const authedProcedure = authenticatedWrites.meta({ gate: 'authenticated' }).use(idempotent);

/**
 * The key must hold at least `role` on the network named by the `networkId`
 * path parameter. Runs before input validation, so a foreign key learns
 * nothing from validation errors. A network outside the key's scopes is 403;
 * a super_user asking for a network that does not exist gets 404.
 */
/** A 403 for a network of the other mode than the key's (`actsInMode`). */
const otherMode = (principal: Principal) =>
  principal.mode === 'test'
    ? 'This network is live and this is a test key (sk_test_…): test keys reach test networks only.'
    : 'This is a test network and this key is live (sk_live_…): use a test key (sk_test_…) on it.';

export function networkProcedure(role: Role) {
  return authenticated
    .meta({ gate: 'network' })
    .use(async ({ ctx, next, getRawInput, type, meta }) => {
      const raw = (await getRawInput()) as { networkId?: unknown } | undefined;
      const networkId = raw?.networkId;
      if (typeof networkId !== 'string' || networkId.length === 0) throw badRequest('networkId is required.');
      const principal = ctx.principal;
      let effective: Role | undefined = principal.scopes.get(networkId);
      if (principal.superUser) {
        const network = await findNetwork({ db: ctx.db, id: networkId });
        if (!network) throw new AppError('not-found', 'Network not found.');
        if (actsInMode(principal, network.mode)) effective = 'administrator';
        else throw forbidden(otherMode(principal));
      }
      if (!effective)
        throw forbidden(principal.otherModeScopes.has(networkId) ? otherMode(principal) : 'This API key has no access to this network.');
      if (!roleAtLeast(effective, role)) {
        throw forbidden(`This operation needs the ${role} role on this network; this API key has ${effective}.`);
      }
      const limits = currentLimits();
      if (limits) spendNetworkBudget(limits, ctx.http.headers, principal, networkId);
      return next({ ctx: { network: { id: networkId, role: effective }, db: decidedAtCommit(ctx, principal, type, meta, networkId) } });
    })
    .use(idempotent);
}

/** Only super_user keys. */
export const superUserProcedure = authenticatedWrites
  .meta({ gate: 'super-user' })
  .use(({ ctx, next }) => {
    if (!ctx.principal.superUser) throw forbidden('This operation needs a super_user API key.');
    return next();
  })
  .use(idempotent);

/**
 * Accepting an invitation: the bearer is either the invitation token itself
 * (someone new) or one of the accepting person's own API keys (someone who
 * already has an account proves who they are; the token then comes in the
 * body). Both pass the same gate as every credential.
 */
export const invitationProcedure = base
  .meta({ gate: 'invitation' })
  .use(async ({ ctx, next, getRawInput, type, meta }) => {
    const authorization = ctx.header('authorization');
    const token = authorization ? bearerToken(authorization) : undefined;
    /** An invitation token is a credential wherever it comes: an unknown one counts as a failed attempt. */
    const openInvitation = async (candidate: string) => {
      if (!INVITATION_TOKEN_PATTERN.test(candidate)) throw unauthorized('Malformed invitation token.');
      const found = await findInvitationByToken({ db: ctx.db, token: candidate });
      if (!found) throw unauthorized('Invalid invitation token.');
      return { id: found.id, token: candidate, row: found };
    };
    if (!token?.startsWith('inv_')) {
      const raw = (await getRawInput()) as { invitation_token?: unknown } | undefined;
      const principal = await admit(
        ctx,
        async () => {
          const caller = await authenticateOnce(ctx);
          // A malformed one is the input's problem (400, from its schema); an unknown one is a failed credential.
          if (typeof raw?.invitation_token === 'string' && INVITATION_TOKEN_PATTERN.test(raw.invitation_token)) {
            await openInvitation(raw.invitation_token);
          }
          return caller;
        },
        ownerBucketOf,
      );
      ctx.log.keyId = principal.keyId;
      return next({ ctx: { principal, db: decidedAtCommit(ctx, principal, type, meta) } });
    }
    const invitation = await admit(
      ctx,
      () => openInvitation(token),
      () => undefined,
    );
    return next({ ctx: { invitation } });
  })
  .use(idempotent);

/**
 * Asking for a sign-in link: no credential. Each request spends its client address's sign-in
 * bucket and the named address's (SIGN_IN_REQUESTS_PER_HOUR each, server/http/request-budget.ts)
 * before anything else, so nobody can have the service mail one person, or send from one address,
 * without end. The input is read raw here: a malformed address still spends the client's bucket.
 */
export const signInRequestProcedure = base
  .meta({ gate: 'sign-in-request' })
  .use(async ({ ctx, next, getRawInput }) => {
    const limits = currentLimits();
    if (limits) {
      const raw = (await getRawInput()) as { email?: unknown } | undefined;
      const email = typeof raw?.email === 'string' ? raw.email.trim().toLowerCase() : undefined;
      spendSignInRequest(limits, ctx.http.headers, lockoutKeyOf(ctx.clientAddress), email);
    }
    return next();
  })
  .use(idempotent);

/**
 * Following a sign-in link: its token (`sil_…`) is the bearer, a credential like any other — it
 * passes `admit`, and an unknown one counts as a failed attempt of the address.
 */
export const signInLinkProcedure = base
  .meta({ gate: 'sign-in-link' })
  .use(async ({ ctx, next }) => {
    const token = bearerToken(ctx.header('authorization'));
    const signInLink = await admit(
      ctx,
      async () => {
        if (!token || !SIGN_IN_TOKEN_PATTERN.test(token)) throw unauthorized('Send the sign-in link’s token: Authorization: Bearer sil_….');
        const found = await findSignInLinkByToken({ db: ctx.db, token });
        if (!found) throw unauthorized('Invalid sign-in link.');
        return { id: found.id, token };
      },
      () => undefined,
    );
    return next({ ctx: { signInLink } });
  })
  .use(idempotent);

/**
 * Asking for a passkey sign-in's challenge: no credential. Refused while the client's address is
 * locked out after failed attempts; each request spends its address's own bucket (at the per-key
 * rate, RATE_LIMIT_PER_SECOND), so one address cannot fill the challenge table.
 */
export const passkeyOptionsProcedure = base
  .meta({ gate: 'passkey-options' })
  .use(async ({ ctx, next }) => {
    const limits = currentLimits();
    if (limits) {
      refuseLockedOut(limits, failedAuthenticationKey(ctx));
      spendPasskeyOptions(limits, ctx.http.headers, lockoutKeyOf(ctx.clientAddress));
    }
    return next();
  })
  .use(idempotent);

/**
 * Signing in with a passkey: the signed challenge is the credential. It passes `admit` like any
 * other: a passkey that is not registered, or a signature that does not verify, is a 401 and a
 * failed attempt of the address (server/services/passkeys/passkey-sign-in.ts). A body that is not
 * a challenge and an answer is left to the input's schema (400).
 */
export const passkeySignInProcedure = base
  .meta({ gate: 'passkey' })
  .use(async ({ ctx, next, getRawInput }) => {
    const raw = (await getRawInput()) as { challenge_id?: unknown; response?: unknown } | undefined;
    const { challenge_id: challengeId, response } = raw ?? {};
    let passkey: { passkeyId: string; newCounter: number; challengeId: string } | undefined;
    if (
      typeof challengeId === 'string' &&
      typeof response === 'object' &&
      response !== null &&
      typeof (response as { id?: unknown }).id === 'string'
    ) {
      const verified = await admit(
        ctx,
        () => verifyPasskeyAssertion({ db: ctx.db, challengeId, response: response as AuthenticationResponseJSON }),
        () => undefined,
      );
      passkey = { ...verified, challengeId };
    }
    return next({ ctx: { passkey } });
  })
  .use(idempotent);

/**
 * Following an unsubscribe link (a notice's List-Unsubscribe, or its footer's page): the signed
 * token in the input is the credential. It passes `admit`: a token this service did not sign is a
 * 401 and a failed attempt of the address; a valid one spends its person's budget.
 */
export const unsubscribeProcedure = base
  .meta({ gate: 'unsubscribe' })
  .use(async ({ ctx, next, getRawInput }) => {
    const raw = (await getRawInput()) as { token?: unknown } | undefined;
    const unsubscribe = await admit(
      ctx,
      async () => {
        const found = typeof raw?.token === 'string' ? readUnsubscribeToken(raw.token) : undefined;
        if (!found) throw unauthorized('This unsubscribe link is not valid: copy the whole link from the email.');
        return found;
      },
      // A valid link spends its person's budget, as their keys do: sending it without end is no free write.
      (found) => ownerBucket(found.userId),
    );
    return next({ ctx: { unsubscribe } });
  })
  .use(idempotent);

/**
 * A podcast host's voice consent link (`GET /v1/voice-consents/current` and its decisions): its token
 * (`vcl_…`) is the bearer and opens that one consent, while its link works. Anything else — no
 * token, a malformed or unknown one, another kind of credential, a link past its end — is a 404, as
 * if there were nothing there, and counts as a failed attempt of the address, as an unknown key does.
 */
export const voiceConsentLinkProcedure = base
  .meta({ gate: 'voice-consent-link' })
  .use(async ({ ctx, next }) => {
    const token = bearerToken(ctx.header('authorization'));
    const voiceConsent = await admit(
      ctx,
      async () => {
        const found = token && VOICE_CONSENT_TOKEN_PATTERN.test(token) ? await findVoiceConsentByToken({ db: ctx.db, token }) : undefined;
        if (!found || !linkWorks(found)) throw new AppError('not-found', 'This voice consent link is not valid, or it has expired.');
        return { id: found.id, row: found };
      },
      () => undefined,
      'not-found',
    );
    return next({ ctx: { voiceConsent } });
  })
  .use(idempotent);

/**
 * A podcast host's review link of one revision of a creative (`GET /v1/creative-reviews/current`, its
 * audio and its decisions): its token (`crl_…`) is the bearer and opens that one revision, while its
 * link works — until its end, and while no later revision replaces it. Anything else — no token, a
 * malformed or unknown one, another kind of credential, a link past its end or superseded — is a
 * 404, as if there were nothing there, and counts as a failed attempt of the address.
 */
export const creativeReviewLinkProcedure = base
  .meta({ gate: 'creative-review-link' })
  .use(async ({ ctx, next }) => {
    const token = bearerToken(ctx.header('authorization'));
    const invalid = () => new AppError('not-found', 'This review link is not valid, or it has expired.');
    let spentCredential: AppError | undefined;
    const creativeReview = await admit(
      ctx,
      async () => {
        const found = token && CREATIVE_REVIEW_TOKEN_PATTERN.test(token) ? await findCreativeByReviewToken({ db: ctx.db, token }) : undefined;
        if (!found) throw invalid();
        // Superseded by the host's own request for changes, the link can still replay that answer (an
        // Idempotency-Key's retry); everything else it is asked is a 404.
        if (!reviewLinkWorks(found)) {
          if (!reviewLinkSuperseded(found) || !ctx.idempotency) throw invalid();
          spentCredential = invalid();
        }
        return { id: found.id, row: found };
      },
      () => undefined,
      'not-found',
    );
    return next({ ctx: { creativeReview, spentCredential } });
  })
  .use(idempotent);
