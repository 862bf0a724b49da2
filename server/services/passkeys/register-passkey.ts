import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, eq } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { passkeys, users } from '@/db/schema';
import type { Principal } from '@/server/auth/principal';
import { badRequest, conflict, forbidden } from '@/server/errors';
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

/** What the browser needs to make a passkey for the signed-in person (`navigator.credentials.create`). */
export async function passkeyRegistrationOptions({ db, principal }: { db: Queryable; principal: Principal }) {
  const userId = sessionPerson(principal);
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
  const userId = sessionPerson(principal);
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
