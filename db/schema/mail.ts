import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { EMAIL_KINDS, EMAIL_ROUTES, EMAIL_STATUSES } from '@/domain/emails';
import { NOTIFICATION_KINDS } from '@/domain/notifications';
import { at, createdAt } from './columns';
import { users } from './identity';

/**
 * The outbox: every email the service sends, written in the transaction that causes it, with the
 * `send-email` job that sends it (server/services/mail). It is addressed to a person, not kept for
 * a network, so it has no network_id; the job names the network that caused it, for its queue.
 * The message (text, HTML and the one link it carries) is sealed at rest (`sealSecret`), since it
 * may carry a one-time link, and in live mode it is dropped once sent; in test mode it stays, for
 * the development mailbox (`GET /v1/emails/{id}`).
 */
export const emails = pgTable(
  'emails',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: EMAIL_KINDS }).notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    sealedMessage: text('sealed_message'),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('queued'),
    sentVia: text('sent_via', { enum: EMAIL_ROUTES }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    ...createdAt,
  },
  (t) => [index('emails_to_address_idx').on(t.toAddress, t.id)],
);

/** A person's "no" to one kind of notification email: a row per kind turned off. */
export const notificationOptOuts = pgTable(
  'notification_opt_outs',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    ...createdAt,
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/**
 * Each notification email queued, by what it was about (`subject_id`: the subscription, key,
 * creative or invitation): at most one per person, kind and subject a day (the key), and at most
 * one per `occasion` where a subject has several (a key's "expires soon" and "expired"). A row is
 * inserted with ON CONFLICT DO NOTHING before the email is queued, so two processes noticing the
 * same thing send one email. Rows older than 30 days are pruned: the rules look back a day.
 */
export const notificationsSent = pgTable(
  'notifications_sent',
  {
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    subjectId: text('subject_id').notNull(),
    day: date('day')
      .notNull()
      .default(sql`(now() at time zone 'utc')::date`),
    occasion: text('occasion'),
    ...createdAt,
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.subjectId, t.day] }),
    uniqueIndex('notifications_sent_occasion_uq').on(t.userId, t.kind, t.subjectId, t.occasion),
    index('notifications_sent_subject_idx').on(t.kind, t.subjectId),
    index('notifications_sent_created_idx').on(t.createdAt),
  ],
);
