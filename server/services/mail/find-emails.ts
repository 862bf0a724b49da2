import { and, desc, eq, lt } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { emails } from '@/db/schema';
import { openMessage, type SealedMessage } from './queue-email';

export type EmailRow = typeof emails.$inferSelect;

/** The outbox, newest first, optionally only the mail to one address; a keyset page after `afterId`. */
export function listEmails({
  db,
  to,
  afterId,
  take,
}: {
  db: Queryable;
  to?: string | undefined;
  afterId: string | undefined;
  take: number;
}): Promise<EmailRow[]> {
  return db
    .select()
    .from(emails)
    .where(and(to ? eq(emails.toAddress, to) : undefined, afterId ? lt(emails.id, afterId) : undefined))
    .orderBy(desc(emails.id))
    .limit(take);
}

/** One email of the outbox with its message opened, when it is still kept (test mode; live mode drops it once sent). */
export async function findEmail({ db, id }: { db: Queryable; id: string }): Promise<{ email: EmailRow; message: SealedMessage | null } | undefined> {
  const [email] = await db.select().from(emails).where(eq(emails.id, id));
  if (!email) return undefined;
  return {
    email,
    message: email.sealedMessage ? openMessage(email.sealedMessage) : null,
  };
}
