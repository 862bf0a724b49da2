import { found } from '@/server/errors';
import { findPodcast } from '@/server/services/podcasts/find-podcasts';
import { networkProcedure } from '@/server/trpc';
import { getPodcastInput } from './get-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const getPodcastRoute = networkProcedure('read_only')
  .meta({
    errors: { 'not-found': 'No podcast with this id in the network.' },
    openapi: { method: 'GET', path: '/networks/{networkId}/podcasts/{podcastId}', tags: ['podcasts'], summary: 'Get a podcast', protect: true },
  })
  .input(getPodcastInput)
  .output(podcastSchema)
  .query(async ({ ctx, input }) =>
    presentPodcast(found(await findPodcast({ db: ctx.db, networkId: input.networkId, podcastId: input.podcastId }), 'Podcast')),
  );
