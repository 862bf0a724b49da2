import { paginate } from '@/server/http/pagination';
import { listCampaigns } from '@/server/services/campaigns/find-campaigns';
import { networkProcedure } from '@/server/trpc';
import { timeWindow } from '@/server/routers/shared.types';
import { presentCampaign } from './campaign.types';
import { listCampaignsInput, listCampaignsOutput } from './list-campaigns.types';

export const listCampaignsRoute = networkProcedure('read_only')
  .meta({
    openapi: {
      method: 'GET',
      path: '/networks/{networkId}/campaigns',
      tags: ['campaigns'],
      summary: 'List the network’s campaigns',
      description: 'Filters `status`, `advertiser_id` and the creation time (`since`, `until`, inclusive) combine with the cursor. Ordered by id.',
      protect: true,
    },
  })
  .input(listCampaignsInput)
  .output(listCampaignsOutput)
  .query(({ ctx, input }) => {
    const filter = { status: input.status, advertiserId: input.advertiser_id };
    const created = timeWindow(input);
    return paginate(
      input,
      `campaigns:${input.networkId}:status=${input.status ?? ''}:advertiser=${input.advertiser_id ?? ''}:created=${created.scope}`,
      (after, take) => listCampaigns({ db: ctx.db, networkId: input.networkId, filter, afterId: after, take, created }),
      presentCampaign,
    );
  });
