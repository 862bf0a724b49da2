import { optOutPodcast } from '@/server/services/podcasts/opt-in';
import { networkProcedure } from '@/server/trpc';
import { optOutPodcastInput } from './opt-out-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const optOutPodcastRoute = networkProcedure('administrator')
  .meta({
    errors: { 'not-found': 'No podcast with this id in the network.' },
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/podcasts/{podcastId}/opt-out',
      tags: ['podcasts'],
      summary: 'Opt a podcast out',
      description: 'Sets `opt_in_status: "opted_out"` and clears `opted_in_at`. Idempotent. No request body; no event.',
      protect: true,
    },
  })
  .input(optOutPodcastInput)
  .output(podcastSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) => optOutPodcast({ tx, networkId: input.networkId, podcastId: input.podcastId }));
    return presentPodcast(row);
  });
