import { createHmac, timingSafeEqual } from 'node:crypto';
import { isNotificationKind, UNSUBSCRIBE_TOKEN_PATTERN, type NotificationKind } from '@/domain/notifications';
import { config } from '@/server/config';
import { derivedKey } from '@/server/secrets';

/**
 * An unsubscribe link's token: `<person id>.<kind>.<signature>`, signed with a sub-key of the app
 * secret. Nothing is stored for it, so nothing can leak from the database; it can do one thing
 * only, turn that kind of email off for that person, and it keeps working (a person may act on an
 * old email), as a List-Unsubscribe link must.
 */

const sign = (payload: string) => createHmac('sha256', derivedKey('notification-unsubscribe')).update(payload).digest('base64url');

export function unsubscribeToken(userId: string, kind: NotificationKind): string {
  const payload = `${userId}.${kind}`;
  return `${payload}.${sign(payload)}`;
}

/** Whose and which kind, for a token this service signed; undefined for any other string. */
export function readUnsubscribeToken(token: string): { userId: string; kind: NotificationKind } | undefined {
  if (!UNSUBSCRIBE_TOKEN_PATTERN.test(token)) return undefined;
  const [userId, kind, signature] = token.split('.') as [string, string, string];
  const expected = Buffer.from(sign(`${userId}.${kind}`));
  if (!timingSafeEqual(expected, Buffer.from(signature)) || !isNotificationKind(kind)) return undefined;
  return { userId, kind };
}

/**
 * The two links an email gives: `oneClick`, for List-Unsubscribe (a mail client POSTs to it,
 * RFC 8058, so the token is in the query: the service logs paths without their query), and `page`,
 * for the email's footer: the console's page, the token in the fragment, so opening it changes
 * nothing until the person presses the button (mail scanners open links).
 */
export function unsubscribeLinks(userId: string, kind: NotificationKind): { oneClick: string; page: string } {
  const token = unsubscribeToken(userId, kind);
  const base = config().publicUrl;
  return { oneClick: `${base}/v1/notifications/unsubscribe?token=${token}`, page: `${base}/console/notifications/unsubscribe#token=${token}` };
}
