import { router } from '@/server/trpc';
import { completeSignInRoute } from './complete-sign-in';
import { requestSignInRoute } from './request-sign-in';
import { signOutRoute } from './sign-out';

export const signInRouter = router({
  requestLink: requestSignInRoute,
  complete: completeSignInRoute,
  signOut: signOutRoute,
});
