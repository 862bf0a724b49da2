import { z } from 'zod';
import { EMAIL_KINDS, EMAIL_ROUTES, EMAIL_STATUSES } from '@/domain/emails';
import { listParams, pageOf } from '@/server/http/page';
import { idField, timestamp } from '@/server/routers/shared.types';

export const emailSchema = z
  .object({
    id: idField('eml'),
    kind: z.enum(EMAIL_KINDS),
    to: z.string().meta({ example: 'rae@example.com' }),
    subject: z.string(),
    status: z.enum(EMAIL_STATUSES).meta({
      description:
        'queued (being sent), sent, failed (after its last attempt, or refused for good), or withdrawn (a notice its recipient turned off before it was sent).',
    }),
    sent_via: z
      .enum(EMAIL_ROUTES)
      .nullable()
      .meta({ description: '`smtp` (through SMTP_URL) or `mailbox` (kept in the development mailbox: no SMTP_URL, test mode); null until sent.' }),
    attempts: z.number().int(),
    last_error: z.string().nullable().meta({ description: 'The relay’s answer to the last failed attempt.' }),
    created_at: timestamp,
    sent_at: timestamp.nullable(),
  })
  .meta({ id: 'Email' });

export const emailWithMessageSchema = emailSchema
  .extend({
    text: z.string().nullable().meta({ description: 'The plain-text part; null once dropped (live mode drops the message when it is sent).' }),
    html: z.string().nullable().meta({ description: 'The HTML part; null once dropped.' }),
    link: z
      .string()
      .nullable()
      .meta({ description: 'The one link the email exists to carry (an accept link…); null once dropped or when it has none.' }),
  })
  .meta({ id: 'EmailWithMessage' });

export const listEmailsInput = z.strictObject({
  ...listParams,
  to: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'to must be an email address.' }))
    .optional()
    .meta({ description: 'Only the mail to this address.' }),
});

export const listEmailsOutput = pageOf(emailSchema).meta({ id: 'EmailList' });

export const getEmailInput = z.strictObject({ emailId: z.string().min(1).meta({ description: 'Email id (eml_…).' }) });
