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
function message(
  subject: string,
  paragraphs: string[],
  action: { label: string; link: string },
  after: string[],
  notice?: { why: string; unsubscribe: Unsubscribe },
): EmailMessage {
  const stop = notice && `${notice.why} To stop these emails, open ${notice.unsubscribe.page} (or choose under Your account in the console).`;
  const text = [...paragraphs, `${action.label}:\n${action.link}`, ...after, `— ${PRODUCT_NAME}`, ...(stop ? [stop] : [])].join('\n\n') + '\n';
  const p = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#111827;max-width:560px;margin:24px auto;padding:0 16px">` +
    paragraphs.map(p).join('') +
    `<p style="margin:24px 0"><a href="${escapeHtml(action.link)}" style="background:#111827;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:13px;color:#4b5563">Or open this link: <a href="${escapeHtml(action.link)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(action.link)}</a></p>` +
    after.map(p).join('') +
    `<p style="margin:24px 0 0;font-size:13px;color:#4b5563">— ${escapeHtml(PRODUCT_NAME)}</p>` +
    (notice
      ? `<p style="margin:16px 0 0;font-size:12px;color:#6b7280">${escapeHtml(notice.why)} <a href="${escapeHtml(notice.unsubscribe.page)}" style="color:#6b7280">Turn these emails off</a>, or choose under Your account in the console.</p>`
      : '') +
    `</body></html>`;
  return { subject, text, html, link: action.link, ...(notice ? { unsubscribe: notice.unsubscribe.oneClick } : {}) };
}

/** A notice's unsubscribe links (server/services/notifications/unsubscribe-token.ts). */
type Unsubscribe = { oneClick: string; page: string };

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

/**
 * The email that asks a podcast host for consent to ads in their synthesized voice, with the link to
 * the consent page (its token in the fragment). It says who asks, for which podcast and what, and
 * that nothing happens unless the host says yes.
 */
export function voiceConsentEmail({
  hostName,
  networkName,
  podcastName,
  scope,
  expiresAt,
  linkExpiresAt,
  link,
}: {
  hostName: string;
  networkName: string;
  podcastName: string;
  /** The scope in words: "all of its campaigns", "the campaigns of Acme and Zed". */
  scope: string;
  expiresAt: Date | null;
  linkExpiresAt: Date;
  link: string;
}): EmailMessage {
  return message(
    `${networkName} asks for your consent to ads in your voice`,
    [
      `Hello ${hostName}, ${networkName} asks for your consent to make host-read ads for ${podcastName} with a synthetic copy of your voice, for ${scope}${expiresAt ? `, until ${mailDate(expiresAt)}` : ''}.`,
      'The page shows the full statement. You can grant or refuse there, and revoke a consent you granted from the same page.',
    ],
    { label: 'Read and decide', link },
    [
      `The link works until ${mailDate(linkExpiresAt)}, and only for this request.`,
      'Not expecting this? Ignore this email: nothing is made in your voice unless you grant consent.',
    ],
  );
}

/**
 * The email that asks a podcast host to review an ad made in their synthesized voice, with the link
 * to the review page (its token in the fragment): listen, read the script and the talking points,
 * approve or ask for changes. Nothing is offered to listeners until it is approved.
 */
export function creativeReviewEmail({
  hostName,
  networkName,
  podcastName,
  advertiserName,
  campaignName,
  revision,
  linkExpiresAt,
  link,
}: {
  hostName: string;
  networkName: string;
  podcastName: string;
  advertiserName: string;
  campaignName: string;
  revision: number;
  linkExpiresAt: Date;
  link: string;
}): EmailMessage {
  const which = revision === 1 ? 'An ad' : `Version ${revision} of an ad`;
  return message(
    `Review the ${advertiserName} ad in your voice for ${podcastName}`,
    [
      `Hello ${hostName}, ${which} for ${advertiserName} (${campaignName}) on ${podcastName} was made by ${networkName} with the synthetic copy of your voice you consented to.`,
      'Listen to it and read its script and talking points, then approve it or ask for changes. It is not offered to listeners until it is approved.',
    ],
    { label: 'Listen and review', link },
    [
      `The link works until ${mailDate(linkExpiresAt)}, and only for this version of the ad.`,
      'Not expecting this? Ignore this email: nothing is approved unless you approve it.',
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

/**
 * The person's first email sign-in proved their address, and keys they had before (made on an
 * inviter's word) no longer prove who they are: which, so they can revoke any they do not know.
 */
export function addressProvenEmail({
  name,
  keys,
  link,
}: {
  name: string;
  keys: Array<{ name: string; start: string; createdAt: Date }>;
  link: string;
}): EmailMessage {
  return message(
    `Check the API keys made before you signed in to ${PRODUCT_NAME}`,
    [
      `Hello ${name}, you just signed in with a link sent to this address, which proves it is yours. ${keys.length === 1 ? 'One API key' : `${keys.length} API keys`} of your account ${keys.length === 1 ? 'was' : 'were'} made before, when someone else could have accepted your invitation:`,
      ...keys.map((k) => `• “${k.name}” (${k.start}…), made ${mailDate(k.createdAt)}`),
      'They keep their access, but no longer prove who you are: they accept no invitation for you.',
    ],
    { label: 'Review your keys', link },
    ['Revoke any key you do not know under My API keys. Only you can sign in with this address from now on.'],
  );
}

/** A webhook subscription was disabled by the service (every delivery failed for days). */
export function webhookDisabledEmail({
  name,
  networkName,
  url,
  reason,
  link,
  unsubscribe,
}: {
  name: string;
  networkName: string;
  url: string;
  reason: string;
  link: string;
  unsubscribe: Unsubscribe;
}): EmailMessage {
  return message(
    `A webhook of ${networkName} was disabled`,
    [
      `Hello ${name}, the webhook subscription to ${url} in ${networkName} was disabled. ${reason}`,
      'Events are kept meanwhile: enabling it again sends what it missed.',
    ],
    { label: 'Open the subscription', link },
    [],
    { why: `You get this because you administer ${networkName}.`, unsubscribe },
  );
}

/** An API key expires within 7 days, or has expired. */
export function keyExpiringEmail({
  name,
  keyName,
  keyStart,
  expiresAt,
  expired,
  networkNames,
  link,
  unsubscribe,
}: {
  name: string;
  keyName: string;
  keyStart: string;
  expiresAt: Date;
  expired: boolean;
  networkNames: string[];
  link: string;
  unsubscribe: Unsubscribe;
}): EmailMessage {
  const key = `“${keyName}” (${keyStart}…)`;
  const where = networkNames.length > 0 ? ` It works on ${networkNames.join(', ')}.` : '';
  return message(
    expired ? `The API key “${keyName}” has expired` : `The API key “${keyName}” expires on ${mailDate(expiresAt).split(',')[0]}`,
    [
      expired
        ? `Hello ${name}, the API key ${key} expired on ${mailDate(expiresAt)}: requests with it now get 401.${where}`
        : `Hello ${name}, the API key ${key} expires on ${mailDate(expiresAt)}.${where} Rotate it, or mint a new one, before then.`,
    ],
    { label: 'Open the keys', link },
    [],
    { why: 'You get this because you own the key or administer a network it works on.', unsubscribe },
  );
}

/** A creative failed to synthesize. */
export function creativeFailedEmail({
  name,
  networkName,
  creativeId,
  reason,
  link,
  unsubscribe,
}: {
  name: string;
  networkName: string;
  creativeId: string;
  reason: string;
  link: string;
  unsubscribe: Unsubscribe;
}): EmailMessage {
  return message(
    `A creative of ${networkName} failed`,
    [`Hello ${name}, the creative ${creativeId} in ${networkName} could not be made: ${reason}`, 'You can retry it once the cause is fixed.'],
    { label: 'Open the creatives', link },
    [],
    { why: `You get this because you administer ${networkName}.`, unsubscribe },
  );
}

/** An invitation the person sent was accepted. */
export function invitationAcceptedEmail({
  name,
  networkName,
  email,
  role,
  link,
  unsubscribe,
}: {
  name: string;
  networkName: string;
  email: string;
  role: Role;
  link: string;
  unsubscribe: Unsubscribe;
}): EmailMessage {
  return message(
    `${email} joined ${networkName}`,
    [`Hello ${name}, ${email} accepted your invitation and joined ${networkName} as ${ROLE_WORDS[role]}.`],
    { label: 'Open the members', link },
    [],
    { why: 'You get this because you sent the invitation.', unsubscribe },
  );
}
