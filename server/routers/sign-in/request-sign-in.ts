import { requestSignIn } from '@/server/services/sign-in/request-sign-in';
import { SIGN_IN_LINK_MINUTES } from '@/server/services/sign-in/sign-in-link';
import { signInRequestProcedure } from '@/server/trpc';
import { requestSignInInput, signInRequestedSchema } from './sign-in.types';

export const requestSignInRoute = signInRequestProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/sign-in/email',
      tags: ['sign-in'],
      summary: 'Email me a sign-in link',
      description:
        'Emails a one-time sign-in link to the address, when a person has it; the answer (202) is the same either way. ' +
        `The link works once, for ${SIGN_IN_LINK_MINUTES} minutes: the console's page \`/console/sign-in/email#token=sil_…\` ` +
        'exchanges it for a session key (`POST /sign-in`). No credential; SIGN_IN_REQUESTS_PER_HOUR per client address and per email address.',
      successDescription: 'Accepted',
    },
  })
  .input(requestSignInInput)
  .output(signInRequestedSchema)
  .mutation(async ({ ctx, input }) => {
    await requestSignIn({ db: ctx.db, email: input.email });
    ctx.http.status = 202;
    return { email: input.email, link_expires_in_seconds: SIGN_IN_LINK_MINUTES * 60 };
  });
