import { router } from '@/server/trpc';
import { createFlightRoute } from './create-flight';
import { deleteFlightRoute } from './delete-flight';
import { getFlightRoute } from './get-flight';
import { listEligiblePodcastsRoute } from './list-eligible-podcasts';
import { listFlightsRoute } from './list-flights';
import { updateFlightRoute } from './update-flight';

export const flightsRouter = router({
  list: listFlightsRoute,
  create: createFlightRoute,
  get: getFlightRoute,
  update: updateFlightRoute,
  remove: deleteFlightRoute,
  eligiblePodcasts: listEligiblePodcastsRoute,
});
