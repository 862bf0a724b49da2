import { presentApiKey } from '@/server/routers/keys/api-key.types';
import { passkeySignInInput } from '@/server/routers/passkeys/passkeys.types';
import { signInWithPasskey } from '@/server/services/passkeys/passkey-sign-in';
import { passkeySignInProcedure } from '@/server/trpc';
import { sessionSchema } from './sign-in.types';

export const signInWithPasskeyRoute = passkeySignInProcedure
  .meta({
    errors: {
      unauthorized:
        'The passkey is not registered here (or was removed), or its signature does not verify (counts against the failed-authentication limit).',
      conflict: 'The challenge was used or has expired: ask for a new one.',
      'quota-exceeded': 'The person already has as many active API keys as one owner may (QUOTA_API_KEYS_PER_OWNER); a session is one more.',
    },
    openapi: {
      method: 'POST',
      path: '/sign-in/passkey',
      tags: ['sign-in'],
      summary: 'Sign in with a passkey',
      description:
        'Send the challenge’s id and the browser’s signature over it. Answers 201 with the person and a session key, as an emailed link ' +
        'does (`POST /sign-in`). No credential: the signature is the proof.',
      successDescription: 'Created',
    },
  })
  .input(passkeySignInInput)
  .output(sessionSchema)
  .mutation(async ({ ctx }) => {
    const passkey = ctx.passkey!; // the gate verified every well-formed input
    const session = await ctx.db.transaction((tx) =>
      signInWithPasskey({
        tx,
        challengeId: passkey.challengeId,
        passkeyId: passkey.passkeyId,
        newCounter: passkey.newCounter,
      }),
    );
    ctx.http.status = 201;
    return { person: session.person, api_key: { ...presentApiKey(session.key, session.scopes), token: session.token } };
  });
