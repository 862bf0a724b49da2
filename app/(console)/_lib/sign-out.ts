'use client';

import { isSessionKey, readApiKey, signOut } from './session';
import { createOneOffClient } from './trpc';

/**
 * The "Sign out" button: a console session's key (an email sign-in's) is ended on the server first
 * (`POST /v1/sign-out`), so it stops working now rather than when it expires; a pasted API key is
 * only forgotten by the tab (it is its holder's to revoke). Forgotten either way, also when the
 * server cannot be reached.
 */
export async function signOutNow(): Promise<void> {
  const token = readApiKey();
  if (token && isSessionKey())
    await createOneOffClient(token)
      .signIn.signOut.mutate()
      .catch(() => undefined);
  signOut();
}
