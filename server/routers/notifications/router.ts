import { router } from '@/server/trpc';
import { getNotificationSettingsRoute } from './get-notification-settings';
import { unsubscribeRoute } from './unsubscribe';
import { updateNotificationSettingsRoute } from './update-notification-settings';

export const notificationsRouter = router({
  settings: getNotificationSettingsRoute,
  updateSettings: updateNotificationSettingsRoute,
  unsubscribe: unsubscribeRoute,
});
