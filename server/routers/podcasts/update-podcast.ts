import { expectedVersion } from '@/server/http/locking';
import { sentFields } from '@/server/http/patch';
import type { PodcastFields } from '@/server/services/podcasts/create-podcast';
import { updatePodcast } from '@/server/services/podcasts/update-podcast';
import { networkProcedure } from '@/server/trpc';
import { podcastSchema, presentPodcast } from './podcast.types';
import { updatePodcastInput } from './update-podcast.types';

export const updatePodcastRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No podcast with this id in the network.',
      conflict: 'The version you sent (If-Match or body) is stale, or another write came first.',
    },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}/podcasts/{podcastId}',
      tags: ['podcasts'],
      summary: 'Update a podcast',
      description:
        'Optimistically locked: send If-Match with the ETag you read, or `version`. A stale version answers 409. Opt-in state changes through …/opt-in and …/opt-out.',
      protect: true,
    },
  })
  .input(updatePodcastInput)
  .output(podcastSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), input.version);
    const changes = sentFields<PodcastFields>({
      name: input.name,
      hostName: input.host_name,
      voice: input.voice,
      rssUrl: input.rss_url,
      excludedCategories: input.excluded_categories,
      blockedAdvertiserIds: input.blocked_advertiser_ids,
    });
    const row = await ctx.db.transaction((tx) =>
      updatePodcast({ tx, networkId: input.networkId, podcastId: input.podcastId, changes, expectedVersion: expected }),
    );
    return presentPodcast(row);
  });
