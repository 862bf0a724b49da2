import { setEtag } from '../../http/locking';
import { createPodcast as insertPodcast } from '../../services/podcasts/create-podcast';
import { networkProcedure } from '../../trpc';
import { createPodcastInput } from './create-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const createPodcast = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/podcasts',
      tags: ['podcasts'],
      summary: 'Create a podcast',
      description: 'A new podcast is `not_opted_in`. `voice` is one of the presets (default `default`).',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createPodcastInput)
  .output(podcastSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      insertPodcast(tx, input.networkId, { name: input.name, hostName: input.host_name, voice: input.voice, rssUrl: input.rss_url }),
    );
    ctx.http.status = 201;
    setEtag(ctx.http, row.version);
    return presentPodcast(row);
  });
