import { NOTIFICATION_KINDS } from './notifications';

/** What an email is about; each kind has its template in server/services/mail/templates.ts. */
export const EMAIL_KINDS = [
  'invitation',
  'sign_in',
  'passkey_added',
  'address_proven',
  'voice_consent',
  'creative_review',
  ...NOTIFICATION_KINDS,
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * queued (its job will send it) → sent, or failed after its last attempt or a permanent refusal, or
 * withdrawn: a notice whose recipient turned its kind off before it was sent.
 */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'withdrawn'] as const;

/** `smtp` (SMTP_URL) or `mailbox` (the development mailbox: no SMTP_URL, test mode). */
export const EMAIL_ROUTES = ['smtp', 'mailbox'] as const;
