import { z } from 'zod';
import { NOTIFICATION_DESCRIPTIONS, NOTIFICATION_KINDS, UNSUBSCRIBE_TOKEN_PATTERN, type NotificationKind } from '@/domain/notifications';

const kindFlags = <T extends z.ZodType>(flag: (kind: NotificationKind) => T) =>
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, flag(kind)])) as Record<NotificationKind, T>;

export const notificationSettingsSchema = z
  .object(kindFlags((kind) => z.boolean().meta({ description: `${NOTIFICATION_DESCRIPTIONS[kind]} Emailed when true.` })))
  .meta({
    id: 'NotificationSettings',
    description: 'Which notices you are emailed (each kind at most once a day about one thing). Every kind is on until you turn it off.',
  });

export const noInput = z.strictObject({}).optional();

export const updateNotificationSettingsInput = z.strictObject(kindFlags((kind) => z.boolean({ error: `${kind} must be true or false.` }).optional()));

export const unsubscribeInput = z.strictObject({
  token: z
    .string({ error: 'token is required.' })
    .regex(UNSUBSCRIBE_TOKEN_PATTERN, 'token is not an unsubscribe link’s token.')
    .meta({ description: 'The token of the link in the email (after `token=`).' }),
});

export const unsubscribedSchema = z
  .object({
    kind: z.enum(NOTIFICATION_KINDS),
    enabled: z.literal(false),
  })
  .meta({ id: 'Unsubscribed', description: 'The kind of notice now turned off for the person the link was sent to.' });
