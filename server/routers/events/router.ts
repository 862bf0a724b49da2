import { router } from '@/server/trpc';
import { listEventTypesRoute } from './list-event-types';
import { listEventsRoute } from './list-events';

export const eventsRouter = router({ list: listEventsRoute, types: listEventTypesRoute });
