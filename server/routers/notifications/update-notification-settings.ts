import { changeNotificationSettings, settingsPerson } from '@/server/services/notifications/settings';
import { authedProcedure } from '@/server/trpc';
import { notificationSettingsSchema, updateNotificationSettingsInput } from './notifications.types';

export const updateNotificationSettingsRoute = authedProcedure
  .meta({
    errors: { forbidden: 'The key is a service account’s, or one an administrator minted for you: use a key you got yourself.' },
    openapi: {
      method: 'PATCH',
      path: '/me/notifications',
      tags: ['me'],
      summary: 'Turn notification emails on or off',
      description:
        'Sets the kinds you name (`false` turns one off) and answers with all of them. Each kind is set on its own, so no If-Match: ' +
        'two changes of different kinds both hold, and a change sent twice is the same change.',
      protect: true,
    },
  })
  .input(updateNotificationSettingsInput)
  .output(notificationSettingsSchema)
  .mutation(({ ctx, input }) => {
    const userId = settingsPerson(ctx.principal);
    return ctx.db.transaction((tx) => changeNotificationSettings({ tx, userId, changes: input ?? {} }));
  });
