/**
 * What the service tells a person by email without being asked; each person turns each kind off
 * (`PATCH /v1/me/notifications`, or the unsubscribe link every such email carries).
 */
export const NOTIFICATION_KINDS = ['webhook_disabled', 'key_expiring', 'creative_failed', 'invitation_accepted'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Who gets each kind and when, as the settings and the console say it. */
export const NOTIFICATION_DESCRIPTIONS: Record<NotificationKind, string> = {
  webhook_disabled: 'A webhook subscription of a network you administer was disabled after failing for days.',
  key_expiring: 'An API key you own, or one a network you administer issued, expires within 7 days, and when it has expired.',
  creative_failed: 'A creative of a network you administer failed to synthesize.',
  invitation_accepted: 'Someone accepted an invitation you sent.',
};

export const isNotificationKind = (value: string): value is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(value);

/** An unsubscribe link's token: `<person id>.<kind>.<signature>` (server/services/notifications/unsubscribe-token.ts). */
export const UNSUBSCRIBE_TOKEN_PATTERN = /^usr_[0-9a-z]{1,64}\.[a-z_]{1,40}\.[\w-]{43}$/;
