import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { memberships, networks, notificationOptOuts, notificationsSent, users } from '@/db/schema';
import type { NotificationKind } from '@/domain/notifications';
import { OPERATOR_EMAIL } from '@/server/services/keys/bootstrap';
import { queueEmail, type EmailMessage } from '@/server/services/mail/queue-email';
import { unsubscribeLinks } from './unsubscribe-token';

/** A person a notice may go to. */
export interface Recipient {
  id: string;
  name: string;
  email: string;
}

const recipientColumns = { id: users.id, name: users.name, email: sql<string>`${users.email}` };
/** A person with a mailbox: the operator's placeholder address is none. */
const hasMailbox = and(isNotNull(users.email), ne(users.email, OPERATOR_EMAIL));

/** A network's name, as mail names it. */
export async function networkName({ tx, networkId }: { tx: Tx; networkId: string }): Promise<string> {
  const [network] = await tx.select({ name: networks.name }).from(networks).where(eq(networks.id, networkId));
  return network?.name ?? networkId;
}

/** The people who administer `networkId` now, and its name. */
export async function networkAdministrators({
  tx,
  networkId,
}: {
  tx: Tx;
  networkId: string;
}): Promise<{ networkName: string; administrators: Recipient[] }> {
  const administrators = await tx
    .select(recipientColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.networkId, networkId), eq(memberships.status, 'active'), eq(memberships.role, 'administrator'), hasMailbox));
  return { networkName: await networkName({ tx, networkId }), administrators };
}

/** The person `userId`, if they have a mailbox. */
export async function person({ tx, userId }: { tx: Tx; userId: string }): Promise<Recipient | undefined> {
  const [found] = await tx
    .select(recipientColumns)
    .from(users)
    .where(and(eq(users.id, userId), hasMailbox));
  return found;
}

/**
 * Emails a notice of `kind` about `subjectId` to each recipient who has not turned that kind off,
 * on the caller's transaction (the outbox: sent when the change that caused it commits, never for
 * one rolled back). A person gets at most one notice of a kind about one subject a day, and one
 * per `occasion` (notifications_sent's keys): the row is claimed first, so two processes noticing
 * the same thing send one email. Each message carries its own unsubscribe links. Returns how many
 * were queued.
 */
export async function notify({
  tx,
  kind,
  subjectId,
  occasion,
  recipients,
  queue,
  message,
}: {
  tx: Tx;
  kind: NotificationKind;
  subjectId: string;
  occasion?: string;
  recipients: Recipient[];
  /** The network (or person) whose mail queue the notices wait in. */
  queue: string;
  message: (recipient: Recipient, unsubscribe: { oneClick: string; page: string }) => EmailMessage;
}): Promise<number> {
  const unique = [...new Map(recipients.map((r) => [r.id, r])).values()];
  if (unique.length === 0) return 0;
  const optedOut = await tx
    .select({ userId: notificationOptOuts.userId })
    .from(notificationOptOuts)
    .where(
      and(
        eq(notificationOptOuts.kind, kind),
        inArray(
          notificationOptOuts.userId,
          unique.map((r) => r.id),
        ),
      ),
    );
  const silent = optedOut.map((row) => row.userId);
  const wanted = unique.filter((r) => !silent.includes(r.id));
  if (wanted.length === 0) return 0;
  const claimed = await tx
    .insert(notificationsSent)
    .values(wanted.map((r) => ({ userId: r.id, kind, subjectId, occasion })))
    .onConflictDoNothing()
    .returning({ userId: notificationsSent.userId });
  const claimedIds = new Set(claimed.map((row) => row.userId));
  for (const recipient of wanted.filter((r) => claimedIds.has(r.id))) {
    await queueEmail({ tx, kind, to: recipient.email, queue, message: message(recipient, unsubscribeLinks(recipient.id, kind)) });
  }
  return claimedIds.size;
}

/** Forgets notices older than 30 days: every rule looks back a day at most. */
export async function pruneNotificationsSent({ tx }: { tx: Tx }): Promise<void> {
  await tx.delete(notificationsSent).where(sql`${notificationsSent.createdAt} < now() - interval '30 days'`);
}
