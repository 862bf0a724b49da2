import type { Role } from '@/domain/roles';
import type { EmailMessage } from './queue-email';

export const PRODUCT_NAME = 'Ad Network Service';

const ROLE_WORDS: Record<Role, string> = { administrator: 'an administrator', read_only: 'a read-only member' };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A date as people read it in mail: "3 January 2027, 14:05 UTC". */
const mailDate = (at: Date) =>
  `${at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}, ${at.toISOString().slice(11, 16)} UTC`;

/**
 * Paragraphs as plain text and as HTML (escaped), with one call-to-action link. `link` is the only
 * secret a message may carry: nothing else in it (names, roles, dates) is.
 */
function message(subject: string, paragraphs: string[], action: { label: string; link: string }, after: string[]): EmailMessage {
  const text = [...paragraphs, `${action.label}:\n${action.link}`, ...after, `— ${PRODUCT_NAME}`].join('\n\n') + '\n';
  const p = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#111827;max-width:560px;margin:24px auto;padding:0 16px">` +
    paragraphs.map(p).join('') +
    `<p style="margin:24px 0"><a href="${escapeHtml(action.link)}" style="background:#111827;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:13px;color:#4b5563">Or open this link: <a href="${escapeHtml(action.link)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(action.link)}</a></p>` +
    after.map(p).join('') +
    `<p style="margin:24px 0 0;font-size:13px;color:#4b5563">— ${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
  return { subject, text, html, link: action.link };
}

/** The email that carries an invitation's accept link (its token in the fragment: never sent to a server's logs). */
export function invitationEmail({
  networkName,
  role,
  invitedBy,
  expiresAt,
  link,
}: {
  networkName: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
  link: string;
}): EmailMessage {
  const who = invitedBy ?? 'An administrator';
  return message(
    `${who} invited you to ${networkName} on ${PRODUCT_NAME}`,
    [`${who} invited you to join the network ${networkName} on ${PRODUCT_NAME} as ${ROLE_WORDS[role]}.`],
    { label: 'Accept the invitation', link },
    [
      `The link works once, until ${mailDate(expiresAt)}. Accepting it gives you your first API key for ${networkName}.`,
      'Not expecting this? Ignore this email: nothing happens unless the link is followed.',
    ],
  );
}

/** The email that carries a one-time sign-in link (its token in the fragment). */
export function signInEmail({
  name,
  expiresAt,
  sessionHours,
  link,
}: {
  name: string;
  expiresAt: Date;
  sessionHours: number;
  link: string;
}): EmailMessage {
  return message(
    `Your sign-in link for ${PRODUCT_NAME}`,
    [`Hello ${name}, here is the link you asked for to sign in to the ${PRODUCT_NAME} console.`],
    { label: 'Sign in', link },
    [
      `The link works once, until ${mailDate(expiresAt)}. It signs you in to this browser for up to ${sessionHours} hours.`,
      'Did not ask for it? Ignore this email: nobody can sign in without the link.',
    ],
  );
}

/** The notice that a passkey was added to the person's account: if it was not them, where to remove it. */
export function passkeyAddedEmail({
  name,
  passkeyName,
  addedAt,
  link,
}: {
  name: string;
  passkeyName: string;
  addedAt: Date;
  link: string;
}): EmailMessage {
  return message(
    `A passkey was added to your ${PRODUCT_NAME} account`,
    [
      `Hello ${name}, a passkey named “${passkeyName}” was added to your account on ${mailDate(addedAt)}. It signs you in to the ${PRODUCT_NAME} console.`,
    ],
    { label: 'Review your passkeys', link },
    ['Not you? Sign in with an emailed link, remove the passkey under Your account, and sign out every session by revoking its key.'],
  );
}
