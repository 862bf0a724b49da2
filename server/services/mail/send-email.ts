import { and, eq, inArray, sql } from 'drizzle-orm';
import type { JobHelpers } from 'graphile-worker';
import type { Database } from '@/db/client';
import { emails } from '@/db/schema';
import { config } from '@/server/config';
import { logger } from '@/server/logger';
import { openMessage } from './queue-email';
import { smtpTransport } from './transport';

/** A host name for Message-ID: MAIL_FROM's domain. */
const messageIdHost = (from: string) => /@([^>\s]+)>?$/.exec(from)?.[1] ?? 'localhost';

/**
 * A reply code the relay will answer the same way next time (5xx: no such mailbox, refused…):
 * the email fails at once instead of being retried.
 */
const permanent = (error: unknown) => {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * Sends one queued email: through SMTP_URL, or, without one (test mode), into the development
 * mailbox — it is marked sent there, and one log line names it with its subject and the console
 * link where the developer running the service reads it (GET /v1/emails/{id} too). Does nothing for an email no longer queued (a retry after it was
 * sent, or a notice withdrawn by its recipient's opt-out). A temporary failure throws, and graphile-worker retries the job with backoff until
 * MAIL_MAX_ATTEMPTS; the last attempt, or a permanent refusal, marks the email failed with the
 * relay's answer. Sent at least once: a crash between the relay's acceptance and the update below
 * sends it again, with the same Message-ID, so a receiving system can tell.
 */
export async function sendEmail({ db, emailId, helpers }: { db: Database; emailId: string; helpers: Pick<JobHelpers, 'job'> }): Promise<void> {
  const [email] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.id, emailId), eq(emails.status, 'queued')));
  if (!email?.sealedMessage) return;
  const message = openMessage(email.sealedMessage);
  const c = config();
  const keepMessage = c.APP_ENV === 'test'; // live mode drops the message (and its one-time link) once sent
  const sent = (via: 'smtp' | 'mailbox') =>
    db
      .update(emails)
      .set({
        status: 'sent',
        sentVia: via,
        sentAt: sql`now()`,
        attempts: sql`${emails.attempts} + 1`,
        lastError: null,
        ...(keepMessage ? {} : { sealedMessage: null }),
      })
      // Withdrawn while it was being handed over (its recipient turned the kind off): it went, so say so.
      .where(and(eq(emails.id, email.id), inArray(emails.status, ['queued', 'withdrawn'])));

  if (!c.SMTP_URL) {
    await sent('mailbox');
    // The line names where to read it, not the link it carries: a one-time link is a secret, and logs keep no secret.
    logger.info(
      { email: email.id, to: email.toAddress, subject: email.subject, read: `${c.publicUrl}/console/outbox?email=${email.id}` },
      'mail kept in the development mailbox (no SMTP_URL): read it in the console’s Outbox',
    );
    return;
  }
  try {
    await smtpTransport(c.SMTP_URL).sendMail({
      from: c.MAIL_FROM,
      to: email.toAddress,
      subject: email.subject,
      text: message.text,
      html: message.html,
      messageId: `<${email.id}@${messageIdHost(c.MAIL_FROM)}>`,
      // A notice says how to stop it: List-Unsubscribe, and List-Unsubscribe-Post for one click (RFC 8058).
      ...(message.unsubscribe
        ? { list: { unsubscribe: message.unsubscribe }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
        : {}),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const last = permanent(error) || helpers.job.attempts >= helpers.job.max_attempts;
    await db
      .update(emails)
      .set({
        attempts: sql`${emails.attempts} + 1`,
        lastError: reason.slice(0, 500),
        ...(last ? { status: 'failed' as const, sealedMessage: keepMessage ? email.sealedMessage : null } : {}),
      })
      .where(and(eq(emails.id, email.id), eq(emails.status, 'queued')));
    logger.warn({ email: email.id, attempt: helpers.job.attempts, last, reason }, last ? 'email failed' : 'email not sent yet; retrying');
    if (!last) throw error;
    return;
  }
  await sent('smtp');
  logger.info({ email: email.id, attempt: helpers.job.attempts }, 'email sent');
}
