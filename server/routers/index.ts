import { router } from '../trpc';
import { auditRouter } from './audit/router';
import { eventsRouter } from './events/router';
import { invitationsRouter } from './invitations/router';
import { keysRouter } from './keys/router';
import { meRouter } from './me/router';
import { membersRouter } from './members/router';
import { networksRouter } from './networks/router';
import { serviceAccountsRouter } from './service-accounts/router';

/** The one set of procedures: served as REST under /v1 and to the console under /api/trpc. */
export const appRouter = router({
  me: meRouter,
  networks: networksRouter,
  events: eventsRouter,
  keys: keysRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  serviceAccounts: serviceAccountsRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
