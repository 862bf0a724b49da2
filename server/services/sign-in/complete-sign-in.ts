import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apiKeys, memberships, signInLinks, users } from '@/db/schema';
import { withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { hashToken } from '@/server/auth/tokens';
import { config } from '@/server/config';
import { conflict } from '@/server/errors';
import { mintPlatformKey } from '@/server/services/keys/mint-api-key';
import { queueEmail } from '@/server/services/mail/queue-email';
import { addressProvenEmail } from '@/server/services/mail/templates';
import { SIGN_IN_LINK_MINUTES } from './sign-in-link';

/** A person keeps at most this many console sessions at once: signing in once more ends the oldest. */
export const MAX_SESSIONS = 10;

/** The name every session key has (a person's session keys are told apart by when they were made). */
export const SESSION_KEY_NAME = 'Console session';

/**
 * Follow a sign-in link, once: the link is used up and the person gets a session key — an API key
 * of theirs marked `session`, scoped to each network they are an active member of at their role
 * there, expiring after SESSION_LIFETIME_HOURS. It proves who they are (it came from their mailbox).
 *
 * The first time a person's address is proven this way, the keys they had before stop proving who
 * they are: those accounts were made on an inviter's word (test mode, or before invitations were
 * emailed), and whoever holds their keys may not be the one who reads the mail. The keys keep their
 * access; they just accept no invitation for the person any more, and the person is emailed which
 * still work, so that they can revoke any they do not know.
 *
 * The link row is locked first (of two concurrent uses, one wins), then the person's credentials are
 * withdrawn-locked (server/auth/credential-lock.ts): writes in flight by their keys finish first,
 * and an acceptance that starts later reads what this changed.
 */
export async function signInWithLink({ tx, token }: { tx: Tx; token: string }) {
  const [link] = await tx
    .select({ id: signInLinks.id, userId: signInLinks.userId, usedAt: signInLinks.usedAt, expired: sql<boolean>`${signInLinks.expiresAt} <= now()` })
    .from(signInLinks)
    .where(eq(signInLinks.tokenHash, hashToken(token)))
    .for('update');
  if (!link || link.usedAt) throw conflict('This sign-in link has already been used; each link works once. Ask for a new one.');
  if (link.expired) throw conflict(`This sign-in link has expired (links work for ${SIGN_IN_LINK_MINUTES} minutes). Ask for a new one.`);

  await withdrawCredentialsOf(tx, [link.userId]);
  const [person] = await tx
    .select({ id: users.id, name: users.name, email: users.email, emailProvenAt: users.emailProvenAt })
    .from(users)
    .where(eq(users.id, link.userId))
    .for('update');
  if (!person!.emailProvenAt) {
    await tx
      .update(users)
      .set({ emailProvenAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(users.id, person!.id));
    const earlier = await tx
      .update(apiKeys)
      .set({ identifiesOwner: false })
      .where(and(eq(apiKeys.userId, person!.id), eq(apiKeys.identifiesOwner, true)))
      .returning({ name: apiKeys.name, start: apiKeys.start, createdAt: apiKeys.createdAt, works: sql<boolean>`${liveKey}` });
    await tellOfEarlierKeys(
      tx,
      person!,
      earlier.filter((k) => k.works),
    );
  }
  const session = await startSession({ tx, person: person! });
  await tx
    .update(signInLinks)
    .set({ usedAt: sql`now()`, sessionKeyId: session.key.id })
    .where(eq(signInLinks.id, link.id));
  return session;
}

/** A key that still works: not revoked, not expired. */
const liveKey = sql`(${apiKeys.revokedAt} is null or ${apiKeys.revokedAt} > now()) and (${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > now())`;

async function tellOfEarlierKeys(
  tx: Tx,
  person: { id: string; name: string; email: string | null },
  keys: Array<{ name: string; start: string; createdAt: Date }>,
): Promise<void> {
  if (keys.length === 0 || !person.email) return;
  const [network] = await tx.select({ id: memberships.networkId }).from(memberships).where(eq(memberships.userId, person.id)).limit(1);
  const link = network ? `${config().publicUrl}/console/n/${network.id}/my-keys` : `${config().publicUrl}/console`;
  await queueEmail({
    tx,
    kind: 'address_proven',
    to: person.email,
    queue: person.id,
    message: addressProvenEmail({ name: person.name, keys, link }),
  });
}

/**
 * A new console session for a person who just proved who they are (an emailed link, a passkey),
 * in the transaction that holds their credentials withdrawn-locked: their oldest sessions past
 * MAX_SESSIONS end, and the session key is scoped to each network they are an active member of.
 */
export async function startSession({ tx, person }: { tx: Tx; person: { id: string; name: string; email: string | null } }) {
  await endOldestSessions(tx, person.id);
  const scopes = await tx
    .select({ networkId: memberships.networkId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, person.id), eq(memberships.status, 'active')))
    .orderBy(memberships.networkId);
  const minted = await mintPlatformKey({
    tx,
    name: SESSION_KEY_NAME,
    owner: { userId: person.id }, // the person proved who they are
    scopes,
    expiresAt: new Date(Date.now() + config().SESSION_LIFETIME_HOURS * 3_600_000),
    session: true,
  });
  return { ...minted, person: { id: person.id, name: person.name, email: person.email! } };
}

/** The person's sessions that still work (not revoked, not expired, not signed out). */
export const workingSessionsOf = (userId: string) =>
  and(
    eq(apiKeys.userId, userId),
    eq(apiKeys.session, true),
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
  );

/** Keep the person's newest MAX_SESSIONS − 1 working sessions; end the rest, as signing out does. */
async function endOldestSessions(tx: Tx, userId: string): Promise<void> {
  const oldest = tx
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(workingSessionsOf(userId))
    .orderBy(desc(apiKeys.id))
    .offset(MAX_SESSIONS - 1);
  await tx
    .update(apiKeys)
    .set({ expiresAt: sql`now()` })
    .where(inArray(apiKeys.id, oldest));
}
