import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { database, transactionAsDatabase, type Database } from '../db/client';
import { authenticate, type Principal } from './auth/principal';
import { roleAtLeast, type Role } from './auth/roles';
import { AppError, badRequest, forbidden } from './errors';
import { containsNul, nulRefused } from './http/body';
import { completeIdempotencyKey, storedResponseOf, type IdempotencyClaim } from './http/idempotency';
import { currentLimits } from './http/limits';
import { problemFromError, toTRPCError, type Problem } from './http/problem';
import { rateLimitHeaders } from './http/rate-limit';
import { findNetwork } from './services/networks/find-network';

/** What a handler may say about the HTTP response, whatever the transport. */
export interface HttpOut {
  status?: number;
  headers: Record<string, string>;
  /** A non-JSON body (audio): the REST layer sends these bytes instead of the procedure's JSON output. */
  raw?: { body: Buffer; contentType: string };
}

export interface Context {
  db: Database;
  requestId: string;
  clientAddress: string;
  header(name: string): string | undefined;
  http: HttpOut;
  /** Filled by the authentication middleware. */
  principal?: Principal;
  /** What the request log line reports. */
  log: { keyId?: string; route?: string };
  /** The transport already refused NUL in every part of the input (/v1 does, before routing). */
  inputChecked: boolean;
  /** The Idempotency-Key this request holds (reserved by /v1 before routing). */
  idempotency?: IdempotencyClaim;
}

/** State the HTTP layer keeps on a request (request id, log fields, an already-resolved principal). */
export interface RequestState {
  requestId: string;
  log: Context['log'];
  http: HttpOut;
  principal?: Principal;
  inputChecked?: boolean;
  idempotency?: IdempotencyClaim;
}

export type AppRequest = IncomingMessage & { state?: RequestState; body?: unknown };

export function requestState(req: AppRequest): RequestState {
  req.state ??= { requestId: randomUUID(), log: {}, http: { headers: {} } };
  return req.state;
}

export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** The context for one HTTP request, on either transport. */
export function createContext({ req }: { req: AppRequest }): Context {
  const state = requestState(req);
  return {
    db: database(),
    requestId: state.requestId,
    clientAddress: clientAddress(req),
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    http: state.http,
    principal: state.principal,
    log: state.log,
    inputChecked: state.inputChecked === true,
    idempotency: state.idempotency,
  };
}

export type ErrorShapeData = { problem: Problem };

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
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
  // /v1 refuses NUL while reading the URL and body; this covers the console transport, whose adapter reads its own.
  if (!ctx.inputChecked && containsNul(await getRawInput())) throw toTRPCError(nulRefused());
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  return result;
});

export const publicProcedure = base;

const ROLLBACK = Symbol('roll back the idempotent transaction');

/**
 * An idempotent POST (/v1 with an Idempotency-Key) runs its operation and stores
 * its answer in ONE transaction, so a retry with the key finds either nothing
 * (rolled back: it runs again) or the answer (committed: it is replayed) — also
 * when the COMMIT reached Postgres but its acknowledgement was lost and the
 * client was told 503. Services' own transactions run inline in it. An error
 * rolls the operation back; the REST layer then remembers or releases the key
 * (server/http/rest.ts). Binary answers (a voice preview) are not remembered.
 */
const idempotentTransaction = t.middleware(async ({ ctx, type, next }) => {
  const claim = ctx.idempotency;
  if (type !== 'mutation' || !claim) return next();
  const run: { outcome?: Awaited<ReturnType<typeof next>> } = {};
  try {
    await ctx.db.transaction(async (tx) => {
      const db = transactionAsDatabase(tx);
      run.outcome = await next({ ctx: { db } });
      if (!run.outcome.ok) throw ROLLBACK;
      if (!ctx.http.raw) await completeIdempotencyKey(db, claim.apiKeyId, claim.key, storedResponseOf(ctx.http, run.outcome.data));
    });
  } catch (error) {
    // The operation's own error is the answer; anything else (storing the answer,
    // COMMIT) leaves the outcome unknown to us: a 5xx, after which a retry replays
    // the answer if the transaction did commit.
    if (run.outcome && !run.outcome.ok) return run.outcome;
    throw error;
  }
  claim.stored = !ctx.http.raw;
  return run.outcome!;
});

/** Any valid API key; applies the per-key rate limit. */
export const authedProcedure = base.use(async ({ ctx, next }) => {
  const limits = currentLimits();
  let principal = ctx.principal;
  if (!principal) {
    const addressKey = `auth-fail:${ctx.clientAddress}`;
    if (limits?.authFailures.exhausted(addressKey)) {
      throw new AppError('rate-limited', 'Too many failed authentication attempts from this address. Wait and retry.', {
        headers: { 'Retry-After': String(limits.authFailures.consume(addressKey).retryAfterSeconds) },
      });
    }
    try {
      principal = await authenticate(ctx.header('authorization'));
    } catch (error) {
      // Only a refused key counts as a failed attempt: a database outage must not lock clients out.
      if (error instanceof AppError) limits?.authFailures.consume(addressKey);
      throw error;
    }
  }
  ctx.log.keyId = principal.keyId;
  if (limits) {
    const decision = limits.perKey.consume(principal.keyId);
    Object.assign(ctx.http.headers, rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw new AppError('rate-limited', `Rate limit exceeded. Retry after ${decision.retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
  }
  return next({ ctx: { ...ctx, principal } });
}).use(idempotentTransaction);

/**
 * The key must hold at least `role` on the network named by the `networkId`
 * path parameter. Runs before input validation, so a foreign key learns
 * nothing from validation errors. A network outside the key's scopes is 403;
 * a super_user asking for a network that does not exist gets 404.
 */
export function networkProcedure(role: Role) {
  return authedProcedure.use(async ({ ctx, next, getRawInput }) => {
    const raw = (await getRawInput()) as { networkId?: unknown } | undefined;
    const networkId = raw?.networkId;
    if (typeof networkId !== 'string' || networkId.length === 0) throw badRequest('networkId is required.');
    const principal = ctx.principal;
    let effective: Role | undefined = principal.scopes.get(networkId);
    if (principal.superUser) {
      if (!(await findNetwork(ctx.db, networkId))) throw new AppError('not-found', 'Network not found.');
      effective = 'administrator';
    }
    if (!effective) throw forbidden('This API key has no access to this network.');
    if (!roleAtLeast(effective, role)) {
      throw forbidden(`This operation needs the ${role} role on this network; this API key has ${effective}.`);
    }
    return next({ ctx: { ...ctx, network: { id: networkId, role: effective } } });
  });
}

/** Only super_user keys. */
export const superUserProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.principal.superUser) throw forbidden('This operation needs a super_user API key.');
  return next();
});
