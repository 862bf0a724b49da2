import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { isTransientConflict, postgresClientOf, transactionAsDatabase, type Database } from '@/db/client';
import { apiKeys, apiKeyScopes, idempotencyKeys } from '@/db/schema';
import { column, statement } from '@/db/statement';
import type { Principal } from '@/server/auth/principal';
import { config } from '@/server/config';
import { AppError, badRequest, ERROR_KINDS, forbidden, type ErrorKind } from '@/server/errors';
import { openSecret, sealSecret } from '@/server/secrets';
import { covers } from '@/server/auth/key-access';
import { problemFromError, type Problem } from './problem';

/*
 * Idempotency-Key on a /v1 POST, the whole mechanism, top to bottom:
 *
 * 1. The REST layer (rest.ts) puts the header and the request's fingerprint on the context
 *    (`IdempotencyRequest`). Nothing is stored yet.
 * 2. `idempotently` runs as the LAST middleware of every procedure, after authentication,
 *    the rate limit and the role check: a replay is a request and is authorized like one.
 * 3. It opens the operation's transaction and takes the key in it: a transaction-scoped advisory
 *    lock on the key, then its row. A concurrent request with the same key finds the lock taken
 *    and gets 409 at once (it never waits, holding a connection, behind a slow operation); the
 *    lock goes with the transaction — also when the process holding it is killed.
 * 4. Found a committed answer: a different request → 422; the same request → replayed with
 *    `Idempotent-Replayed: true`, after re-checking any API key the answer hands out. A credential
 *    its own request used up (a review link superseded by the host's request for changes) gets
 *    only that: a replay, or its refusal.
 * 5. Otherwise the operation runs in that transaction and its answer is written before the
 *    COMMIT: one commit. A crash (kill -9) at any point before it leaves nothing behind, so a
 *    retry runs the operation; a COMMIT whose acknowledgement was lost replays on retry.
 * 6. An error rolls everything back. An error from the operation's rules (404, 409…) is then
 *    remembered on its own, so a retry repeats it; refusals before the operation could run
 *    (400, 401, 403, 413, 415, 429), 5xx and a 409 for a clash with a concurrent transaction (a
 *    deadlock) are not, so a fixed or later retry runs.
 */

/** What the REST layer read off a POST with an Idempotency-Key. */
export interface IdempotencyRequest {
  key: string;
  /** Method, path with query and the exact body bytes: what makes two requests "the same". */
  fingerprint: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What an idempotent run needs of the request's context. */
export interface IdempotentContext {
  db: Database;
  http: { status?: number; headers: Record<string, string>; raw?: unknown };
  idempotency?: IdempotencyRequest;
  principal?: Principal;
  /** Accepting an invitation with its token as the bearer: the invitation is the caller. */
  invitation?: { id: string };
  /** Following a sign-in link: the link is the caller. */
  signInLink?: { id: string };
  /** A host's voice consent link: the consent it opens is the caller. */
  voiceConsent?: { id: string };
  /** A host's review link: the revision it opens is the caller. */
  creativeReview?: { id: string };
  /** A credential its own request used up: it replays a stored answer, and gets this refusal for anything else. */
  spentCredential?: AppError;
}

/** A procedure's outcome as tRPC's middlewares pass it on. */
type Outcome = { ok: true; data: unknown } | { ok: false; error: unknown };

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Response headers an idempotent replay repeats. */
export const REPLAYED_HEADERS = ['etag', 'location'];

/** Stored responses may carry a token shown once (a new API key): they rest encrypted. */
const SEAL_PURPOSE = 'idempotent-response';

export function requestFingerprint(method: string, url: string, body: Buffer): string {
  return createHash('sha256').update(`${method} ${url}\n`).update(body).digest('hex');
}

/**
 * Run a mutation under its Idempotency-Key (see the steps above). `replayed`
 * turns a stored success into the procedure's result; a stored error is thrown.
 */
export async function idempotently<R extends Outcome>(
  ctx: IdempotentContext,
  run: (db: Database) => Promise<R>,
  replayed: (data: unknown) => R,
): Promise<R> {
  const { key, fingerprint } = ctx.idempotency!;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest('Idempotency-Key must be 1–255 visible ASCII characters, e.g. a UUID.');
  const owner =
    ctx.principal?.keyId ??
    (ctx.invitation
      ? `invitation:${ctx.invitation.id}`
      : ctx.voiceConsent
        ? `voice-consent:${ctx.voiceConsent.id}`
        : ctx.creativeReview
          ? `creative-review:${ctx.creativeReview.id}`
          : `sign-in:${ctx.signInLink!.id}`);

  let outcome: R | undefined;
  let answered: StoredResponse | undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      const db = transactionAsDatabase(tx);
      answered = await takeKey(db, owner, key, fingerprint);
      // A replay is a read that may hand out a secret: checked under the credential lock too.
      if (answered) return void (await assertReplayable(db, ctx.principal, answered.body)); // nothing written
      if (ctx.spentCredential) throw ctx.spentCredential; // rolled back: the key stays free
      outcome = await run(db);
      if (!outcome.ok) throw ROLL_BACK;
      if (ctx.http.raw)
        await forgetKey(db, owner, key); // binary answers (audio) are produced again
      else await storeAnswer(db, owner, key, ctx.http, outcome.data);
    });
  } catch (error) {
    if (error !== ROLL_BACK) throw error; // storing or COMMIT failed: the outcome is unknown, a retry finds out
    const failed = outcome as Extract<Outcome, { ok: false }>;
    await rememberRefusal(ctx.db, owner, key, fingerprint, failed.error);
    return outcome!;
  }
  if (!answered) return outcome!;
  Object.assign(ctx.http.headers, answered.headers, { 'Idempotent-Replayed': 'true' });
  if (answered.status >= 400) throw storedError(answered);
  ctx.http.status = answered.status;
  return replayed(answered.body);
}

const ROLL_BACK = Symbol('roll back the idempotent transaction');

/** The first key of the two-key advisory lock space: idempotency keys' own (hashtext of owner and key is the second). */
const IDEMPOTENCY_LOCK_CLASS = 7_242_031;

const ik = idempotencyKeys;
const param = {
  owner: sql.placeholder('owner'),
  key: sql.placeholder('key'),
  fingerprint: sql.placeholder('fingerprint'),
  ttlSeconds: sql.placeholder('ttlSeconds'),
};

/**
 * One prepared statement (this runs on every POST that sends a key): the advisory lock, and
 * the row only when the lock was ours — so the insert never waits on another transaction.
 */
const takeKeyStatement = statement<
  { locked: boolean; inserted: boolean },
  { owner: string; key: string; fingerprint: string; ttlSeconds: number }
>(sql`
  with lock as (select pg_try_advisory_xact_lock(${sql.raw(String(IDEMPOTENCY_LOCK_CLASS))}::int, hashtext(${param.owner}::text || ' ' || ${param.key}::text)) as locked),
  claim as (
    insert into ${ik} (${column(ik.apiKeyId)}, ${column(ik.key)}, ${column(ik.fingerprint)}, ${column(ik.state)}, ${column(ik.expiresAt)})
    select ${param.owner}, ${param.key}, ${param.fingerprint}, 'running', now() + make_interval(secs => ${param.ttlSeconds}::float8)
      from lock where locked
    on conflict do nothing
    returning ${column(ik.key)})
  select (select locked from lock) as locked, exists (select 1 from claim) as inserted`);

/** Every keyed POST that ran writes its answer before COMMIT. */
const storeAnswerStatement = statement<never, { owner: string; key: string; status: number; headers: string; body: string }>(sql`
  update ${ik}
     set ${column(ik.state)} = 'done', ${column(ik.responseStatus)} = ${sql.placeholder('status')}::int,
         ${column(ik.responseHeaders)} = ${sql.placeholder('headers')}::jsonb, ${column(ik.responseBody)} = ${sql.placeholder('body')}::jsonb
   where ${ik.apiKeyId} = ${param.owner} and ${ik.key} = ${param.key}`);

/** Both as Postgres receives them: the benchmark's bare server runs these (scripts/bench/service-statements.ts). */
export const IDEMPOTENCY_STATEMENTS = { takeKey: takeKeyStatement.rendered, storeAnswer: storeAnswerStatement.rendered };

/**
 * Take the key in this transaction, or return the answer a committed request
 * left under it. An expired key is forgotten and taken anew.
 */
async function takeKey(db: Database, owner: string, key: string, fingerprint: string): Promise<StoredResponse | undefined> {
  const ttlSeconds = config().IDEMPOTENCY_TTL_HOURS * 3600;
  for (let attempt = 0; attempt < 2; attempt++) {
    const [taken] = await takeKeyStatement(postgresClientOf(db), { owner, key, fingerprint, ttlSeconds });
    if (!taken!.locked) throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed. Retry after it completes.');
    if (taken!.inserted) return undefined;

    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, owner), eq(idempotencyKeys.key, key)));
    if (!row) continue; // pruned between the two statements
    if (row.expiresAt.getTime() <= Date.now()) {
      await forgetKey(db, owner, key);
      continue;
    }
    if (row.fingerprint !== fingerprint) {
      throw new AppError(
        'idempotency-key-reused',
        'This Idempotency-Key was already used for a different request. Use a new key for each distinct operation.',
      );
    }
    return {
      status: row.responseStatus!,
      headers: row.responseHeaders ?? {},
      body: JSON.parse(openSecret(SEAL_PURPOSE, row.responseBody as string)) as unknown,
    };
  }
  throw new AppError('conflict', 'A request with this Idempotency-Key is being processed. Retry shortly.');
}

/**
 * Remember a procedure's answer as the REST layer sends it: its status, the headers a replay
 * repeats, and its JSON (sealed; a replay parses it back), serialized once.
 */
async function storeAnswer(db: Database, owner: string, key: string, http: IdempotentContext['http'], data: unknown): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(http.headers)) {
    if (REPLAYED_HEADERS.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  const sealed = sealSecret(SEAL_PURPOSE, data === undefined ? 'null' : JSON.stringify(data));
  await storeAnswerStatement(postgresClientOf(db), {
    owner,
    key,
    status: http.status ?? 200,
    headers: JSON.stringify(headers),
    body: JSON.stringify(sealed),
  });
}

async function forgetKey(db: Database, owner: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.apiKeyId, owner), eq(idempotencyKeys.key, key)));
}

/** Statuses of requests refused before the operation could run: a retry (fixed, or later) runs. */
const NOT_RUN = new Set([400, 401, 403, 413, 415, 429]);

/**
 * Remember an error from the operation's rules (404, 409…) so that a retry
 * repeats it. Best effort, in a transaction of its own after the rollback: if
 * it is lost, a retry runs the operation again, which changed nothing.
 */
async function rememberRefusal(db: Database, owner: string, key: string, fingerprint: string, error: unknown): Promise<void> {
  const problem = problemFromError(error);
  if (problem.status >= 500 || NOT_RUN.has(problem.status) || isTransientConflict(error)) return;
  const ttlSeconds = config().IDEMPOTENCY_TTL_HOURS * 3600;
  const sealed = sealSecret(SEAL_PURPOSE, JSON.stringify(problem));
  // A write like any other: in a transaction, so the credential is checked at its commit too.
  await db
    .transaction((tx) =>
      tx
        .insert(idempotencyKeys)
        .values({
          apiKeyId: owner,
          key,
          fingerprint,
          state: 'done',
          responseStatus: problem.status,
          responseHeaders: {},
          responseBody: sealed,
          expiresAt: sql`now() + make_interval(secs => ${ttlSeconds}::float8)`,
        })
        .onConflictDoNothing(),
    )
    .catch(() => undefined);
}

function storedError(answer: StoredResponse): AppError {
  const body = answer.body as Problem;
  const slug = body.type.slice(body.type.lastIndexOf('/') + 1);
  const kind = (slug in ERROR_KINDS ? slug : 'conflict') as ErrorKind;
  return new AppError(kind, body.detail, { errors: body.errors, headers: { ...answer.headers, 'Idempotent-Replayed': 'true' } });
}

/**
 * A replay hands out nothing the caller could not be given now: every API key
 * token in the stored answer that the caller's key created must still be
 * covered by the caller's access (rules 6 and 7, as at creation). Keys the
 * platform created (on accepting an invitation) are the invitation's to give.
 */
async function assertReplayable(db: Database, caller: Principal | undefined, body: unknown): Promise<void> {
  if (!caller) return;
  const keyIds = issuedKeyIds(body);
  if (keyIds.length === 0) return;
  const created = await db
    .select({ id: apiKeys.id, superUser: apiKeys.superUser, identifiesOwner: apiKeys.identifiesOwner, environment: apiKeys.environment })
    .from(apiKeys)
    .where(and(inArray(apiKeys.id, keyIds), eq(apiKeys.createdByKeyId, caller.keyId)));
  if (created.length === 0) return;
  const scopes = await db
    .select()
    .from(apiKeyScopes)
    .where(
      inArray(
        apiKeyScopes.keyId,
        created.map((k) => k.id),
      ),
    );
  for (const key of created) {
    const granted = scopes.filter((s) => s.keyId === key.id).map((s) => ({ networkId: s.networkId, role: s.role }));
    if (!covers(caller, { superUser: key.superUser, identifiesOwner: key.identifiesOwner, mode: key.environment, scopes: granted })) {
      throw forbidden(
        'This request created an API key that your key no longer covers, so its answer (with the token) is not repeated. ' +
          'Your key’s access has changed since.',
      );
    }
  }
}

/** Ids of the API keys whose tokens an answer carries (a created key, or one nested in it). */
function issuedKeyIds(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const here = body as { id?: unknown; token?: unknown };
  const own = typeof here.id === 'string' && typeof here.token === 'string' && here.token.startsWith('sk_') ? [here.id] : [];
  return [...own, ...Object.values(body).flatMap(issuedKeyIds)];
}
