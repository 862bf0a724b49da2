import { paginate } from '@/server/http/pagination';
import { listCreatives } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { timeWindow } from '@/server/routers/shared.types';
import { presentCreative } from './creative.types';
import { creativeListSchema, listCreativesInput } from './list-creatives.types';

export const listCreativesRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/creatives',
      tags: ['creatives'],
      summary: 'List creatives',
      description:
        'Filters `status`, `offer_id`, `campaign_id`, `podcast_id` and the creation time (`since`, `until`, inclusive) combine with the cursor. ' +
        'Ordered by id. Every revision is a creative of its own: `status=pending_approval` is the review queue.',
      protect: true,
    },
  })
  .input(listCreativesInput)
  .output(creativeListSchema)
  .query(({ ctx, input }) => {
    const created = timeWindow(input);
    return paginate(
      input,
      `creatives:${input.networkId}:${input.status ?? ''}:${input.offer_id ?? ''}:${input.campaign_id ?? ''}:${input.podcast_id ?? ''}:${created.scope}`,
      (after, take) =>
        listCreatives({
          db: ctx.db,
          networkId: input.networkId,
          filter: { status: input.status, offerId: input.offer_id, campaignId: input.campaign_id, podcastId: input.podcast_id },
          afterId: after,
          take,
          created,
        }),
      presentCreative,
    );
  });
