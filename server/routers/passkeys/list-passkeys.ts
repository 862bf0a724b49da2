import { listPasskeys } from '@/server/services/passkeys/register-passkey';
import { authedProcedure } from '@/server/trpc';
import { noInput, passkeyListSchema, presentPasskey } from './passkeys.types';

export const listPasskeysRoute = authedProcedure
  .meta({
    errors: { forbidden: 'The key is not a console session: sign in with an emailed link first.' },
    openapi: {
      method: 'GET',
      path: '/me/passkeys',
      tags: ['sign-in'],
      summary: 'Your passkeys',
      description: 'The passkeys that sign you in, oldest first. Seen from a console session only.',
      protect: true,
    },
  })
  .input(noInput)
  .output(passkeyListSchema)
  .query(async ({ ctx }) => ({ items: (await listPasskeys({ db: ctx.db, principal: ctx.principal })).map(presentPasskey), next_cursor: null }));
