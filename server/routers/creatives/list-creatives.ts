import { paginate } from '@/server/http/pagination';
import { listCreatives } from '@/server/services/creatives/find-creatives';
import { networkProcedure } from '@/server/trpc';
import { presentCreative } from './creative.types';
import { creativeListSchema, listCreativesInput } from './list-creatives.types';

export const listCreativesRoute = networkProcedure('read_only')
  .meta({ openapi: { method: 'GET', path: '/networks/{networkId}/creatives', tags: ['creatives'], summary: 'List creatives', protect: true } })
  .input(listCreativesInput)
  .output(creativeListSchema)
  .query(({ ctx, input }) =>
    paginate(
      input,
      `creatives:${input.networkId}:${input.status ?? ''}:${input.offer_id ?? ''}:${input.campaign_id ?? ''}`,
      (after, take) =>
        listCreatives({
          db: ctx.db,
          networkId: input.networkId,
          filter: { status: input.status, offerId: input.offer_id, campaignId: input.campaign_id },
          afterId: after,
          take,
        }),
      presentCreative,
    ),
  );
