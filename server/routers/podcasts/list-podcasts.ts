import { paginate } from '../../http/pagination';
import { listPodcasts as findPodcasts } from '../../services/podcasts/find-podcasts';
import { networkProcedure } from '../../trpc';
import { listPodcastsInput, listPodcastsOutput } from './list-podcasts.types';
import { presentPodcast } from './podcast.types';

export const listPodcasts = networkProcedure('read_only')
  .meta({
    openapi: { method: 'GET', path: '/networks/{networkId}/podcasts', tags: ['podcasts'], summary: 'List the network’s podcasts', description: 'Ordered by id.', protect: true },
  })
  .input(listPodcastsInput)
  .output(listPodcastsOutput)
  .query(({ ctx, input }) =>
    paginate(input, `podcasts:${input.networkId}`, (after, take) => findPodcasts(ctx.db, input.networkId, after, take), presentPodcast),
  );
