import { setEtag } from '../../http/locking';
import { optInPodcast as markOptedIn } from '../../services/podcasts/opt-in';
import { networkProcedure } from '../../trpc';
import { optInPodcastInput } from './opt-in-podcast.types';
import { podcastSchema, presentPodcast } from './podcast.types';

export const optInPodcast = networkProcedure('administrator')
  .meta({
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
    const row = await ctx.db.transaction((tx) => markOptedIn(tx, input.networkId, input.podcastId));
    setEtag(ctx.http, row.version);
    return presentPodcast(row);
  });
