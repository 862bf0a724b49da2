import { changeNotificationSettings } from '@/server/services/notifications/settings';
import { unsubscribeProcedure } from '@/server/trpc';
import { unsubscribedSchema, unsubscribeInput } from './notifications.types';

export const unsubscribeRoute = unsubscribeProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/notifications/unsubscribe',
      tags: ['me'],
      summary: 'Turn a kind of notice off, from its email',
      description:
        'The link every notice carries: no API key, the token is the credential, and it turns off that kind of email for the person ' +
        'it was sent to. Also the List-Unsubscribe URL: a mail client’s one-click POST (RFC 8058: `List-Unsubscribe=One-Click` ' +
        'as a form, the token in the query) works as the JSON body does. Turn a kind on again with `PATCH /me/notifications`.',
    },
  })
  .input(unsubscribeInput)
  .output(unsubscribedSchema)
  .mutation(async ({ ctx }) => {
    const { userId, kind } = ctx.unsubscribe!;
    await ctx.db.transaction((tx) => changeNotificationSettings({ tx, userId, changes: { [kind]: false } }));
    return { kind, enabled: false as const };
  });
