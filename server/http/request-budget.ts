import type { Principal } from '@/server/auth/principal';
import { bearerToken } from '@/server/auth/principal';
import { hashToken } from '@/server/auth/tokens';
import { AppError } from '@/server/errors';
import type { Limits } from './limits';
import { rateLimitHeaders, type Decision, type TokenBucketLimiter } from './rate-limit';

/**
 * Request budgets. Every request that presents a credential spends, in this order:
 *
 * 1. the credential's own bucket (RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST), named by its token's
 *    SHA-256 (hashed anyway to look the key up): known before the lookup, so a flood on a spent
 *    key is refused in memory and never reaches Postgres;
 * 2. once the key is looked up, its owner's bucket (RATE_LIMIT_OWNER_*): all keys of one person
 *    or service account share it, so minting keys adds nothing to anyone's share;
 * 3. on an operation of a network, once the key's role there is checked, that network's bucket
 *    (RATE_LIMIT_NETWORK_*), shared by every key acting on it. Checked after the role, so that no
 *    key can spend a network's budget by naming a network it has no access to.
 *
 * super_user keys (the operator's) spend 1 and 2 but never a network's: the operator's work does
 * not use up a tenant's budget, and a tenant that spent its own does not lock the operator out.
 * A console batch of n calls spends n tokens of each (each call passes the gate).
 */
type Headers = Record<string, string>;

/** A credential's bucket: a prefix of its token's SHA-256 (128 bits), never the token. */
export function credentialBucketOf(authorization: string | undefined): string | undefined {
  const token = bearerToken(authorization);
  return token ? `credential:${hashToken(token).slice(0, 32)}` : undefined;
}

/** The person's or service account's bucket (every key has one of the two). */
export function ownerBucketOf(principal: Principal): string | undefined {
  const owner = principal.userId ?? principal.serviceAccountId;
  return owner === null ? undefined : ownerBucket(owner);
}

/** The budget a person or service account shares among all its credentials. */
export const ownerBucket = (ownerId: string): string => `owner:${ownerId}`;
const networkBucketOf = (networkId: string): string => `network:${networkId}`;

/**
 * The owner behind each credential bucket that authenticated in this process: with it, a request on
 * a key whose owner has spent their budget is refused before the key is looked up. Only used to
 * refuse, never to admit: a key's owner never changes, and a revoked key's request that is refused
 * for its owner's budget would have been refused anyway.
 */
const ownerOfCredential = new Map<string, string>();
const OWNER_MEMORY = 100_000;

function remember(credential: string, owner: string): void {
  if (ownerOfCredential.get(credential) === owner) return;
  if (ownerOfCredential.size >= OWNER_MEMORY) ownerOfCredential.clear();
  ownerOfCredential.set(credential, owner);
}

/**
 * RateLimit-* of the tightest bucket the request has spent from (the one with the fewest requests
 * left), or of the one that refused it.
 */
function report(headers: Headers, decision: Decision): void {
  const shown = headers['RateLimit-Remaining'];
  if (!decision.allowed || shown === undefined || decision.remaining < Number(shown)) Object.assign(headers, rateLimitHeaders(decision));
}

function spend(limiter: TokenBucketLimiter, bucket: string, headers: Headers, refusal: string): void {
  const decision = limiter.consume(bucket);
  report(headers, decision);
  if (!decision.allowed) throw refused(bucket, decision, refusal);
}

/** The detail names no number of seconds: the answer may be held (refusal-pacing.ts), and Retry-After says what is left. */
export function refused(bucket: string, decision: Decision, refusal: string): AppError {
  return new AppError('rate-limited', refusal, {
    headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    pace: { line: bucket, waitMs: decision.waitMs, everyMs: decision.tokenMs },
  });
}

const keyRefusal = 'Rate limit exceeded. Retry after the seconds in Retry-After.';
const ownerRefusal =
  "Rate limit exceeded for this key's owner: all keys of one person or service account share one budget, so more keys do not add to it. Retry after the seconds in Retry-After.";
const networkRefusal = 'Rate limit exceeded for this network: every key acting on it shares one budget. Retry after the seconds in Retry-After.';

/**
 * Before the credential is looked up: spend its own bucket, and refuse it if its owner (known from an
 * earlier request) has no budget left. No database work either way. Returns the credential's bucket.
 */
export function spendBeforeLookup(limits: Limits, headers: Headers, authorization: string | undefined): string | undefined {
  const credential = credentialBucketOf(authorization);
  if (credential === undefined) return undefined; // no bearer token: a 401 without a lookup
  spend(limits.perKey, credential, headers, keyRefusal);
  const owner = ownerOfCredential.get(credential);
  if (owner !== undefined && limits.perOwner.exhausted(owner)) {
    const decision = limits.perOwner.consume(owner); // refused: spends nothing
    report(headers, decision);
    throw refused(owner, decision, ownerRefusal);
  }
  return credential;
}

/** After the lookup: spend the owner's bucket (the key's person or service account). */
export function spendOwnerBudget(limits: Limits, headers: Headers, credential: string | undefined, owner: string | undefined): void {
  if (owner === undefined) return;
  if (credential !== undefined) remember(credential, owner);
  spend(limits.perOwner, owner, headers, ownerRefusal);
}

/** An operation on a network, after the key's role there is checked: spend the network's bucket. */
export function spendNetworkBudget(limits: Limits, headers: Headers, principal: Principal, networkId: string): void {
  if (principal.superUser) return;
  spend(limits.perNetwork, networkBucketOf(networkId), headers, networkRefusal);
}

const signInRefusal = 'Too many sign-in links asked for, from this address or for this email address. Retry after the seconds in Retry-After.';

/**
 * Asking for a sign-in link: spend the client address's bucket and the email address's (its
 * SHA-256, never the address) — SIGN_IN_REQUESTS_PER_HOUR each.
 */
export function spendSignInRequest(limits: Limits, headers: Headers, clientAddress: string, email: string | undefined): void {
  spend(limits.signInRequests, `sign-in:client:${clientAddress}`, headers, signInRefusal);
  if (email) spend(limits.signInRequests, `sign-in:email:${hashToken(email).slice(0, 32)}`, headers, signInRefusal);
}

const passkeyOptionsRefusal = 'Too many passkey challenges asked for from this address. Retry after the seconds in Retry-After.';

/** Asking for a passkey sign-in's challenge: the client address's own bucket, at the per-key rate. */
export function spendPasskeyOptions(limits: Limits, headers: Headers, clientAddress: string): void {
  spend(limits.perKey, `passkey-options:${clientAddress}`, headers, passkeyOptionsRefusal);
}
