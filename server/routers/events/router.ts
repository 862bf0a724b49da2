import { router } from '../../trpc';
import { listEvents } from './list-events';
import { listEventTypes } from './list-event-types';

export const eventsRouter = router({ list: listEvents, types: listEventTypes });
