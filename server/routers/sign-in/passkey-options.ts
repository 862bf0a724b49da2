import { passkeySignInOptions } from '@/server/services/passkeys/passkey-sign-in';
import { passkeyOptionsProcedure } from '@/server/trpc';
import { challengeOptionsSchema, noInput } from '@/server/routers/passkeys/passkeys.types';

export const passkeyOptionsRoute = passkeyOptionsProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/sign-in/passkey/options',
      tags: ['sign-in'],
      summary: 'Start signing in with a passkey',
      description:
        'A challenge for the browser to sign with any passkey of this site; send the signature to `POST /sign-in/passkey`. No credential; ' +
        'each client address may ask at the per-key rate (RATE_LIMIT_PER_SECOND).',
    },
  })
  .input(noInput)
  .output(challengeOptionsSchema('request'))
  .mutation(async ({ ctx }) => {
    const { challengeId, options } = await passkeySignInOptions({ db: ctx.db });
    return { challenge_id: challengeId, options: options as unknown as { challenge: string } };
  });
