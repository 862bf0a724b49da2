import { router } from '../trpc';
import { eventsRouter } from './events/router';
import { meRouter } from './me/router';
import { networksRouter } from './networks/router';

/** The one set of procedures: served as REST under /v1 and to the console under /api/trpc. */
export const appRouter = router({
  me: meRouter,
  networks: networksRouter,
  events: eventsRouter,
});

export type AppRouter = typeof appRouter;
