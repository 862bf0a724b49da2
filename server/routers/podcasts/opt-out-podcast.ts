import { setEtag } from '../../http/locking';
import { optOutPodcast as markOptedOut } from '../../services/podcasts/opt-in';
import { networkProcedure } from '../../trpc';
import { optOutPodcastInput } from './opt-out-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const optOutPodcast = networkProcedure('administrator')
  .meta({
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
    const row = await ctx.db.transaction((tx) => markOptedOut(tx, input.networkId, input.podcastId));
    setEtag(ctx.http, row.version);
    return presentPodcast(row);
  });
