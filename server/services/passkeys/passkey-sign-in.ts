import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { eq, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { passkeys, users } from '@/db/schema';
import { withdrawCredentialsOf } from '@/server/auth/credential-lock';
import { unauthorized } from '@/server/errors';
import { startSession } from '@/server/services/sign-in/complete-sign-in';
import { challengeSpent, readChallenge, storeChallenge, useChallenge } from './challenges';
import { relyingParty } from './relying-party';

/** What the browser needs to sign in with any passkey of this site (`navigator.credentials.get`). */
export async function passkeySignInOptions({ db }: { db: Queryable }) {
  const options = await generateAuthenticationOptions({ rpID: relyingParty().id, userVerification: 'preferred' });
  const challengeId = await storeChallenge({ db, purpose: 'sign_in', challenge: options.challenge });
  return { challengeId, options };
}

const refused = () => unauthorized('This passkey is not registered here, or its signature does not verify.');

/**
 * The credential check of a passkey sign-in, run by the gate (server/trpc.ts `admit`): the passkey
 * must be registered and its signature over the challenge must verify, else 401 (a failed attempt
 * of the address); a challenge already used or expired is a 409. The challenge is only read here;
 * the sign-in's transaction uses it up.
 */
export async function verifyPasskeyAssertion({
  db,
  challengeId,
  response,
}: {
  db: Queryable;
  challengeId: string;
  response: AuthenticationResponseJSON;
}) {
  const challenge = await readChallenge({ db, id: challengeId, purpose: 'sign_in' });
  if (!challenge) throw challengeSpent();
  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id));
  if (!passkey) throw refused();
  const rp = relyingParty();
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: false,
    });
    if (!verified) throw refused();
    return { passkeyId: passkey.id, newCounter: authenticationInfo.newCounter };
  } catch {
    throw refused();
  }
}

/**
 * Signs in with a verified passkey: the challenge is used up (of two requests with one, one wins;
 * used or expired → 409), the passkey's counter and last use are recorded, and the person gets a
 * session key as an emailed link gives (server/services/sign-in/complete-sign-in.ts). A passkey
 * removed meanwhile signs nobody in (401).
 */
export async function signInWithPasskey({
  tx,
  challengeId,
  passkeyId,
  newCounter,
}: {
  tx: Tx;
  challengeId: string;
  passkeyId: string;
  newCounter: number;
}) {
  const [owner] = await tx.select({ userId: passkeys.userId }).from(passkeys).where(eq(passkeys.id, passkeyId));
  if (!owner) throw refused();
  // The person's credential lock first, as every write of their keys takes it (removing a passkey
  // too), and only then the challenge's and the passkey's rows: no order to deadlock against.
  await withdrawCredentialsOf(tx, [owner.userId]);
  await useChallenge({ tx, id: challengeId, purpose: 'sign_in' });
  const [passkey] = await tx
    .update(passkeys)
    .set({ counter: sql`greatest(${passkeys.counter}, ${newCounter})`, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, passkeyId))
    .returning({ id: passkeys.id });
  if (!passkey) throw refused(); // removed since the gate read it
  const [person] = await tx.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, owner.userId));
  return startSession({ tx, person: person! });
}
