import { notificationSettings, settingsPerson } from '@/server/services/notifications/settings';
import { authedProcedure } from '@/server/trpc';
import { noInput, notificationSettingsSchema } from './notifications.types';

export const getNotificationSettingsRoute = authedProcedure
  .meta({
    errors: { forbidden: 'The key is a service account’s, or one an administrator minted for you: use a key you got yourself.' },
    openapi: {
      method: 'GET',
      path: '/me/notifications',
      tags: ['me'],
      summary: 'Your notification emails',
      description:
        'Which notices you are emailed. Read and changed with a key of yours that proves who you are (a console session, or a key you got yourself).',
      protect: true,
    },
  })
  .input(noInput)
  .output(notificationSettingsSchema)
  .query(({ ctx }) => notificationSettings({ db: ctx.db, userId: settingsPerson(ctx.principal) }));
