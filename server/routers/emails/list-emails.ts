import { paginate } from '@/server/http/pagination';
import { listEmails, type EmailRow } from '@/server/services/mail/find-emails';
import { superUserProcedure } from '@/server/trpc';
import { iso, isoOrNull } from '@/server/routers/shared.types';
import { listEmailsInput, listEmailsOutput } from './email.types';

export function presentEmail(row: EmailRow) {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    sent_via: row.sentVia,
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: iso(row.createdAt),
    sent_at: isoOrNull(row.sentAt),
  };
}

export const listEmailsRoute = superUserProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/emails',
      tags: ['emails'],
      summary: 'The outbox: every email the service sent or is sending',
      description:
        'Newest first; `to` keeps the mail to one address. Each email says whether it was sent, through SMTP (`SMTP_URL`) or into the ' +
        'development mailbox (no `SMTP_URL`, test mode), or failed, with the relay’s last answer. super_user keys only.',
      protect: true,
    },
  })
  .input(listEmailsInput)
  .output(listEmailsOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `emails:${JSON.stringify([input.to ?? null])}`,
      (after, take) => listEmails({ db: ctx.db, to: input.to, afterId: after, take }),
      presentEmail,
    ),
  );
