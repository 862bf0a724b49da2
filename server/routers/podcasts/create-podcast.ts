import { createPodcast } from '@/server/services/podcasts/create-podcast';
import { networkProcedure } from '@/server/trpc';
import { createPodcastInput } from './create-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const createPodcastRoute = networkProcedure('administrator')
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
      createPodcast({
        tx,
        networkId: input.networkId,
        fields: {
          name: input.name,
          hostName: input.host_name,
          voice: input.voice,
          rssUrl: input.rss_url,
          excludedCategories: input.excluded_categories,
          blockedAdvertiserIds: input.blocked_advertiser_ids,
        },
      }),
    );
    ctx.http.status = 201;
    return presentPodcast(row);
  });
