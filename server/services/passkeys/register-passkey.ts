import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { apiKeys, passkeys, users } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { badRequest, conflict, forbidden } from '@/server/errors';
import { config } from '@/server/config';
import { passkeyAddedEmail } from '@/server/services/mail/templates';
import { queueEmail } from '@/server/services/mail/queue-email';
import { reservePasskeySlot } from '@/server/services/quotas';
import { storeChallenge, useChallenge } from './challenges';
import { relyingParty } from './relying-party';

/**
 * Only a console session (a key got by signing in, which proves who holds it) manages passkeys: a
 * key an administrator minted for a person, or any pasted key, could otherwise add a way to sign
 * in as that person to every network they belong to.
 */
export function sessionPerson(principal: Principal): string {
  if (!principal.session || !principal.identifiesOwner || principal.userId === null) {
    throw forbidden('Passkeys are managed from a console session: sign in with an emailed link first (POST /v1/sign-in/email).');
  }
  return principal.userId;
}

/** A session may add a passkey only this long after it began: after that, the person signs in again. */
export const FRESH_SESSION_MINUTES = 15;

/**
 * The person of a console session that began within FRESH_SESSION_MINUTES: a passkey outlives the
 * session that adds it, so a session key that leaked later (it lives 12 hours) must not turn into a
 * lasting way in. The person proves who they are again by signing in anew.
 */
async function freshSessionPerson(db: Queryable, principal: Principal): Promise<string> {
  const userId = sessionPerson(principal);
  const [key] = await db
    .select({ fresh: sql<boolean>`${apiKeys.createdAt} > now() - make_interval(mins => ${FRESH_SESSION_MINUTES})` })
    .from(apiKeys)
    .where(eq(apiKeys.id, principal.keyId));
  if (!key?.fresh) {
    throw forbidden(
      `A passkey is added within ${FRESH_SESSION_MINUTES} minutes of signing in: sign out, sign in again with an emailed link (or a passkey), and add it then.`,
    );
  }
  return userId;
}

/** What the browser needs to make a passkey for the signed-in person (`navigator.credentials.create`). */
export async function passkeyRegistrationOptions({ db, principal }: { db: Queryable; principal: Principal }) {
  const userId = await freshSessionPerson(db, principal);
  const [person] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  const existing = await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
  const rp = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: person!.email ?? userId,
    userDisplayName: person!.name,
    userID: new TextEncoder().encode(userId),
    attestationType: 'none',
    // Discoverable: signing in then needs no address, the passkey says whose it is.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
  });
  const challengeId = await storeChallenge({ db, purpose: 'register', challenge: options.challenge, userId });
  return { challengeId, options };
}

/**
 * Registers the passkey the browser made from `challengeId`'s options: the challenge is used up (409
 * when used or expired), the authenticator's answer must verify for this origin (400), and the
 * person keeps at most MAX_PASSKEYS_PER_PERSON.
 */
export async function registerPasskey({
  tx,
  principal,
  challengeId,
  name,
  response,
}: {
  tx: Tx;
  principal: Principal;
  challengeId: string;
  name: string;
  response: RegistrationResponseJSON;
}) {
  const userId = await freshSessionPerson(tx, principal);
  const challenge = await useChallenge({ tx, id: challengeId, purpose: 'register', userId });
  const rp = relyingParty();
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw badRequest(`The authenticator's answer does not verify: ${(error as Error).message}`);
  }
  if (!verified.verified || !verified.registrationInfo) throw badRequest("The authenticator's answer does not verify.");
  const { credential } = verified.registrationInfo;
  await reservePasskeySlot({ tx, userId });
  const [row] = await tx
    .insert(passkeys)
    .values({
      id: newId('passkey'),
      userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  if (!row) throw conflict('This passkey is registered already.');
  // Told by email, in the same transaction: if it was not them, they learn it from their mailbox.
  const [person] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  if (person?.email) {
    const message = passkeyAddedEmail({ name: person.name, passkeyName: name, addedAt: row.createdAt, link: `${config().publicUrl}/console` });
    await queueEmail({ tx, kind: 'passkey_added', to: person.email, message, queue: userId });
  }
  return row;
}

/** The signed-in person's passkeys, oldest first. */
export async function listPasskeys({ db, principal }: { db: Queryable; principal: Principal }) {
  const userId = sessionPerson(principal);
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.id);
}

/** Removes one of the signed-in person's passkeys; it no longer signs anyone in. Another person's is a 404. */
export async function removePasskey({ tx, principal, passkeyId }: { tx: Tx; principal: Principal; passkeyId: string }) {
  const userId = sessionPerson(principal);
  const [row] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return row;
}
