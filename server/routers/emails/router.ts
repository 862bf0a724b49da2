import { router } from '@/server/trpc';
import { getEmailRoute } from './get-email';
import { listEmailsRoute } from './list-emails';

export const emailsRouter = router({ list: listEmailsRoute, get: getEmailRoute });
