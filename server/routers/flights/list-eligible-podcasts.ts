import { found } from '@/server/errors';
import { paginate } from '@/server/http/pagination';
import { presentPodcast } from '@/server/routers/podcasts/podcast.types';
import { eligiblePodcasts, type PodcastEligibility } from '@/server/services/brand-safety/brand-safety';
import { findFlight } from '@/server/services/flights/find-flights';
import { networkProcedure } from '@/server/trpc';
import { listEligiblePodcastsInput, listEligiblePodcastsOutput } from './list-eligible-podcasts.types';

export const listEligiblePodcastsRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No flight with this id in the network (or it was deleted).' },
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/flights/{flightId}/eligible-podcasts',
      tags: ['flights'],
      summary: 'Which podcasts a flight may be offered to',
      description:
        'Every opted-in podcast of the network, ordered by id with a cursor, with `eligible` and the brand-safety `reasons` it is not: ' +
        'the podcast excludes a category of the campaign’s advertiser or blocks the advertiser, or — for the flight’s dates — it holds an accepted offer ' +
        'of a competitor and either campaign asks for competitive separation. As things stand now: the rules are checked again when an offer is made and accepted.',
      protect: true,
    },
  })
  .input(listEligiblePodcastsInput)
  .output(listEligiblePodcastsOutput)
  .query(async ({ ctx, input }) => {
    const { networkId, flightId } = input;
    const flight = found(await findFlight({ db: ctx.db, networkId, flightId }), 'Flight');
    return paginate(
      input,
      `eligible-podcasts:${networkId}:flight=${flightId}`,
      (after, take) => eligiblePodcasts({ db: ctx.db, networkId, flight, afterId: after, take }),
      (row: PodcastEligibility) => ({ podcast: presentPodcast(row.podcast), eligible: row.reasons.length === 0, reasons: row.reasons }),
    );
  });
