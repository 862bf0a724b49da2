'use client';

import { readApiKey, signOut } from './session';
import { createOneOffClient } from './trpc';

/**
 * The "Sign out" button: a console session's key (`session` of `GET /v1/me`, an email sign-in's,
 * also when pasted) is ended on the server first (`POST /v1/sign-out`), so it stops working now
 * rather than when it expires; another API key is only forgotten by the tab (it is its holder's to
 * revoke). Forgotten either way, also when the server cannot be reached.
 */
export async function signOutNow({ session }: { session: boolean }): Promise<void> {
  const token = readApiKey();
  if (token && session)
    await createOneOffClient(token)
      .signIn.signOut.mutate()
      .catch(() => undefined);
  signOut();
}
