import { optInPodcast } from '@/server/services/podcasts/opt-in';
import { networkProcedure } from '@/server/trpc';
import { optInPodcastInput } from './opt-in-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const optInPodcastRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No podcast with this id in the network.' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/podcasts/{podcastId}/opt-in',
      tags: ['podcasts'],
      summary: 'Opt a podcast in',
      description:
        'Sets `opt_in_status: "opted_in"` and `opted_in_at`, and sends `optin.completed` (data: podcast_id, name, host_name). ' +
        'Idempotent: opting in an opted-in podcast answers 200 with it and sends no second event. No request body.',
      protect: true,
    },
  })
  .input(optInPodcastInput)
  .output(podcastSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => optInPodcast({ tx, networkId: input.networkId, podcastId: input.podcastId }));
    return presentPodcast(row);
  });
