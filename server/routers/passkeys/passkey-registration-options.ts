import { passkeyRegistrationOptions } from '@/server/services/passkeys/register-passkey';
import { authedProcedure } from '@/server/trpc';
import { challengeOptionsSchema, noInput } from './passkeys.types';

export const passkeyRegistrationOptionsRoute = authedProcedure
  .meta({
    errors: { forbidden: 'The key is not a console session, or the session began more than 15 minutes ago: sign in (again) first.' },
    openapi: {
      method: 'POST',
      path: '/me/passkeys/options',
      tags: ['sign-in'],
      summary: 'Start adding a passkey',
      description:
        'Options for the browser to make a passkey for you (discoverable, so signing in with it needs no address). Then send what the ' +
        'browser made to `POST /me/passkeys`. Only a console session (a key got by signing in) adds passkeys.',
      protect: true,
    },
  })
  .input(noInput)
  .output(challengeOptionsSchema('creation'))
  .mutation(async ({ ctx }) => {
    const { challengeId, options } = await ctx.db.transaction((tx) => passkeyRegistrationOptions({ db: tx, principal: ctx.principal }));
    return { challenge_id: challengeId, options: options as unknown as { challenge: string } };
  });
