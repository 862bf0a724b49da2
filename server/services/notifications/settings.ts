import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { emails, notificationOptOuts, users } from '@/db/schema';
import { NOTIFICATION_KINDS, type NotificationKind } from '@/domain/notifications';
import type { Principal } from '@/server/auth/principal';
import { forbidden } from '@/server/errors';

export type NotificationSettings = Record<NotificationKind, boolean>;

/**
 * The person whose settings a key may read and change: a person's key that proves who holds it (a
 * session, or a key they got themselves). A key an administrator minted for someone, or a service
 * account's, cannot silence a person's notices.
 */
export function settingsPerson(principal: Principal): string {
  if (principal.userId === null || !principal.identifiesOwner) {
    throw forbidden(
      'Notification settings are a person’s own: change them from a console session (sign in with an emailed link or a passkey), or with a key that proves who you are.',
    );
  }
  return principal.userId;
}

/** Each kind, on unless the person turned it off. */
export async function notificationSettings({ db, userId }: { db: Queryable; userId: string }): Promise<NotificationSettings> {
  const off = await db.select({ kind: notificationOptOuts.kind }).from(notificationOptOuts).where(eq(notificationOptOuts.userId, userId));
  const offKinds = new Set(off.map((row) => row.kind));
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !offKinds.has(kind)])) as NotificationSettings;
}

/**
 * Turns the named kinds on or off. Each kind is a row of its own (present: off), written with
 * INSERT … ON CONFLICT and DELETE, so two changes of different kinds never undo each other and a
 * change repeated is the same change: no version to send. Turning a kind off also withdraws the
 * person's notices of that kind still waiting in the outbox: "off" means from now, not after the
 * queue has drained. (One already handed to the relay is recorded as sent.)
 */
export async function changeNotificationSettings({
  tx,
  userId,
  changes,
}: {
  tx: Tx;
  userId: string;
  changes: Partial<NotificationSettings>;
}): Promise<NotificationSettings> {
  const entries = Object.entries(changes) as Array<[NotificationKind, boolean | undefined]>;
  const off = entries.filter(([, on]) => on === false).map(([kind]) => kind);
  const on = entries.filter(([, enabled]) => enabled === true).map(([kind]) => kind);
  if (off.length > 0) {
    await tx
      .insert(notificationOptOuts)
      .values(off.map((kind) => ({ userId, kind })))
      .onConflictDoNothing();
    await tx
      .update(emails)
      .set({ status: 'withdrawn' })
      .where(
        and(
          eq(emails.status, 'queued'),
          inArray(emails.kind, off),
          eq(emails.toAddress, sql`(select ${users.email} from ${users} where ${users.id} = ${userId})`),
        ),
      );
  }
  if (on.length > 0) await tx.delete(notificationOptOuts).where(and(eq(notificationOptOuts.userId, userId), inArray(notificationOptOuts.kind, on)));
  return notificationSettings({ db: tx, userId });
}
