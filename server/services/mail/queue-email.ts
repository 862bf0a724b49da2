import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { emails } from '@/db/schema';
import type { EmailKind } from '@/domain/emails';
import { config } from '@/server/config';
import { enqueueJob } from '@/server/jobs/enqueue';
import { openSecret, sealSecret } from '@/server/secrets';

/** What an email says: plain text and HTML, and the one link it exists to carry, if any. */
export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
  link?: string;
  /** A notice's one-click unsubscribe URL (RFC 8058): sent as List-Unsubscribe. */
  unsubscribe?: string;
}

const SEALED_MESSAGE_PURPOSE = 'email-message';

/** What an email's row keeps sealed: everything of its message but the subject (a column of its own). */
export type SealedMessage = Omit<EmailMessage, 'subject'>;

export const openMessage = (sealed: string): SealedMessage => JSON.parse(openSecret(SEALED_MESSAGE_PURPOSE, sealed)) as SealedMessage;

/** An email's job, one at a time by its key (graphile-worker's `jobs` view shows the key). */
export const emailJobKey = (emailId: string) => `email:${emailId}`;

/**
 * Puts an email in the outbox on the caller's transaction, with the job that sends it: it is sent
 * exactly when the change that caused it commits (never for a rolled-back one), and a crash before
 * it is sent loses nothing (the job runs when a worker is back). The message is sealed at rest.
 * Mail waits in the queue of whoever caused it (`mail:<network>` for a network's, `mail:<person>`
 * for a person's own sign-in links): one at a time per queue, so no network's or person's mail can
 * hold every worker slot while another's waits.
 */
export async function queueEmail({
  tx,
  kind,
  to,
  message,
  queue,
}: {
  tx: Tx;
  kind: EmailKind;
  to: string;
  message: EmailMessage;
  /** The network's or person's id whose queue the email waits in. */
  queue: string;
}): Promise<string> {
  const id = newId('email');
  const { subject, ...sealed } = message;
  await tx.insert(emails).values({ id, kind, toAddress: to, subject, sealedMessage: sealSecret(SEALED_MESSAGE_PURPOSE, JSON.stringify(sealed)) });
  await enqueueJob(
    tx,
    'send-email',
    { emailId: id },
    { jobKey: emailJobKey(id), queueName: `mail:${queue}`, maxAttempts: config().MAIL_MAX_ATTEMPTS },
  );
  return id;
}
