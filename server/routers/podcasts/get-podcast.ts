import { notFound } from '../../errors';
import { setEtag } from '../../http/locking';
import { findPodcast } from '../../services/podcasts/find-podcasts';
import { networkProcedure } from '../../trpc';
import { getPodcastInput } from './get-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const getPodcast = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/podcasts/{podcastId}', tags: ['podcasts'], summary: 'Get a podcast', protect: true } })
  .input(getPodcastInput)
  .output(podcastSchema)
  .query(async ({ ctx, input }) => {
    const row = await findPodcast(ctx.db, input.networkId, input.podcastId);
    if (!row) throw notFound('Podcast');
    setEtag(ctx.http, row.version);
    return presentPodcast(row);
  });
