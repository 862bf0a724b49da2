import { router } from '@/server/trpc';
import { completeSignInRoute } from './complete-sign-in';
import { passkeyOptionsRoute } from './passkey-options';
import { requestSignInRoute } from './request-sign-in';
import { signInWithPasskeyRoute } from './sign-in-with-passkey';
import { signOutRoute } from './sign-out';

export const signInRouter = router({
  requestLink: requestSignInRoute,
  complete: completeSignInRoute,
  signOut: signOutRoute,
  passkeyOptions: passkeyOptionsRoute,
  withPasskey: signInWithPasskeyRoute,
});
