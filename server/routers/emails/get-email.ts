import { found } from '@/server/errors';
import { findEmail } from '@/server/services/mail/find-emails';
import { superUserProcedure } from '@/server/trpc';
import { emailWithMessageSchema, getEmailInput } from './email.types';
import { presentEmail } from './list-emails';

export const getEmailRoute = superUserProcedure
  .meta({
    errors: { 'not-found': 'No email with this id.' },
    openapi: {
      method: 'GET',
      path: '/emails/{emailId}',
      tags: ['emails'],
      summary: 'Read an email of the outbox',
      description:
        'The email with its message — text, HTML and the link it carries — while the service keeps it: in test mode always (the ' +
        'development mailbox), in live mode until it is sent. super_user keys only.',
      protect: true,
    },
  })
  .input(getEmailInput)
  .output(emailWithMessageSchema)
  .query(async ({ ctx, input }) => {
    const { email, message } = found(await findEmail({ db: ctx.db, id: input.emailId }), 'Email');
    return { ...presentEmail(email), text: message?.text ?? null, html: message?.html ?? null, link: message?.link ?? null };
  });
