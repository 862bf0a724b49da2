import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Database, Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { signInLinks, users } from '@/db/schema';
import { generateSecretToken, hashToken } from '@/server/auth/tokens';
import { config } from '@/server/config';
import { enqueueJob } from '@/server/jobs/enqueue';
import { OPERATOR_EMAIL } from '@/server/services/keys/bootstrap';
import { queueEmail } from '@/server/services/mail/queue-email';
import { signInEmail } from '@/server/services/mail/templates';
import { SIGN_IN_LINK_MINUTES } from './sign-in-link';

/** Where a sign-in link lands: the console's page, the token in the fragment (never sent to a server). */
export const signInLink = (token: string) => `${config().publicUrl}/console/sign-in/email#token=${token}`;

/**
 * Someone asked for a sign-in link for `email` (already trimmed and lower-cased). The request only
 * queues a job, the same work whether or not anyone has that address, so neither the answer nor
 * its timing tells who has an account; the job (`sendSignInLink`) finds out. Requests for one
 * address that are still waiting are one job (its key).
 */
export async function requestSignIn({ db, email }: { db: Database; email: string }): Promise<void> {
  await enqueueJob(db, 'request-sign-in', { email }, { jobKey: `sign-in:${hashToken(email).slice(0, 32)}` });
}

/**
 * The job of a sign-in request: when a person has the address (the platform operator's placeholder
 * excepted), a one-time link (`sil_…`, working
 * SIGN_IN_LINK_MINUTES) is stored as a hash and emailed, in one transaction. At most
 * SIGN_IN_REQUESTS_PER_HOUR links per person per hour, counted under the person's row lock, so
 * however many processes ask, a mailbox gets no more than that. Returns the email's id, if one was sent.
 */
export async function sendSignInLink({ tx, email }: { tx: Tx; email: string }): Promise<string | undefined> {
  // The operator's address is a placeholder, not a mailbox: the operator signs in with a key.
  if (email === OPERATOR_EMAIL) return undefined;
  const [person] = await tx.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email)).for('update');
  if (!person) return undefined;
  const [recent] = await tx
    .select({ n: count() })
    .from(signInLinks)
    .where(and(eq(signInLinks.userId, person.id), gt(signInLinks.createdAt, sql`now() - interval '1 hour'`)));
  if (recent!.n >= config().SIGN_IN_REQUESTS_PER_HOUR) return undefined;
  const token = generateSecretToken('sil');
  const [link] = await tx
    .insert(signInLinks)
    .values({
      id: newId('signInLink'),
      userId: person.id,
      tokenHash: hashToken(token),
      expiresAt: sql`now() + make_interval(mins => ${SIGN_IN_LINK_MINUTES})`,
    })
    .returning({ expiresAt: signInLinks.expiresAt });
  return queueEmail({
    tx,
    kind: 'sign_in',
    to: email,
    queue: person.id,
    message: signInEmail({ name: person.name, expiresAt: link!.expiresAt, sessionHours: config().SESSION_LIFETIME_HOURS, link: signInLink(token) }),
  });
}
