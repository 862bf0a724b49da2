import { paginate } from '@/server/http/pagination';
import { listPodcasts } from '@/server/services/podcasts/find-podcasts';
import { networkProcedure } from '@/server/trpc';
import { listPodcastsInput, listPodcastsOutput } from './list-podcasts.types';
import { presentPodcast } from './podcast.types';

export const listPodcastsRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/podcasts',
      tags: ['podcasts'],
      summary: 'List the network’s podcasts',
      description: 'Ordered by id.',
      protect: true,
    },
  })
  .input(listPodcastsInput)
  .output(listPodcastsOutput)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `podcasts:${input.networkId}`,
      (after, take) => listPodcasts({ db: ctx.db, networkId: input.networkId, afterId: after, take }),
      presentPodcast,
    ),
  );
