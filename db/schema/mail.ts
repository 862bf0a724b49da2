import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { EMAIL_KINDS, EMAIL_ROUTES, EMAIL_STATUSES } from '@/domain/emails';
import { at, createdAt } from './columns';

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
