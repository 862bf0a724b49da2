import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { registerPasskey } from '@/server/services/passkeys/register-passkey';
import { authedProcedure } from '@/server/trpc';
import { passkeySchema, presentPasskey, registerPasskeyInput } from './passkeys.types';

export const registerPasskeyRoute = authedProcedure
  .meta({
    errors: {
      forbidden: 'The key is not a console session, or the session began more than 15 minutes ago: sign in (again) first.',
      conflict: 'The challenge was used or has expired, or this passkey is registered already.',
      'quota-exceeded': 'You have 20 passkeys, the most one person may have.',
    },
    openapi: {
      method: 'POST',
      path: '/me/passkeys',
      tags: ['sign-in'],
      summary: 'Add a passkey',
      description:
        'Registers the passkey the browser made from `POST /me/passkeys/options`. The answer must verify for this service’s origin ' +
        '(PUBLIC_URL), else 400. From now on it signs you in (`POST /sign-in/passkey`); you are emailed that it was added. ' +
        'A session adds passkeys within 15 minutes of signing in.',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(registerPasskeyInput)
  .output(passkeySchema)
  .mutation(async ({ ctx, input }) => {
    const passkey = await ctx.db.transaction((tx) =>
      registerPasskey({
        tx,
        principal: ctx.principal,
        challengeId: input.challenge_id,
        name: input.name,
        response: input.response as unknown as RegistrationResponseJSON,
      }),
    );
    ctx.http.status = 201;
    return presentPasskey(passkey);
  });
