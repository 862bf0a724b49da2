import { presentApiKey } from '@/server/routers/keys/api-key.types';
import { signInWithLink } from '@/server/services/sign-in/complete-sign-in';
import { signInLinkProcedure } from '@/server/trpc';
import { completeSignInInput, sessionSchema } from './sign-in.types';

export const completeSignInRoute = signInLinkProcedure
  .meta({
    errors: {
      conflict: 'The link was already used, or has expired.',
      'quota-exceeded': 'The person already has as many active API keys as one owner may (QUOTA_API_KEYS_PER_OWNER); a session is one more.',
    },
    openapi: {
      method: 'POST',
      path: '/sign-in',
      tags: ['sign-in'],
      summary: 'Sign in with an emailed link',
      description:
        'The bearer is the link’s token: `Authorization: Bearer sil_…`. Uses the link up and answers 201 with the person and a session key: ' +
        'an API key of theirs (`session: true`), scoped to each network they are an active member of at their role there, expiring after ' +
        'SESSION_LIFETIME_HOURS (12 at most). A person keeps at most 10 sessions; an 11th ends the oldest. The first sign-in proves the address: ' +
        'keys made before it stop proving who the person is (docs/keys-and-roles.md). Unknown token → 401 (counts against the failed-authentication ' +
        'limit); used or expired → 409.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(completeSignInInput)
  .output(sessionSchema)
  .mutation(async ({ ctx }) => {
    const session = await ctx.db.transaction((tx) => signInWithLink({ tx, token: ctx.signInLink.token }));
    ctx.http.status = 201;
    return { person: session.person, api_key: { ...presentApiKey(session.key, session.scopes), token: session.token } };
  });
