import { router } from '@/server/trpc';
import { getEventRoute } from './get-event';
import { listEventTypesRoute } from './list-event-types';
import { listEventsRoute } from './list-events';

export const eventsRouter = router({ list: listEventsRoute, get: getEventRoute, types: listEventTypesRoute });
