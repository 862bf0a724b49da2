import { createCampaign } from '@/server/services/campaigns/create-campaign';
import { networkProcedure } from '@/server/trpc';
import { campaignSchema, presentCampaign } from './campaign.types';
import { createCampaignInput } from './create-campaign.types';

export const createCampaignRoute = networkProcedure('administrator')
  .meta({
    openapi: {
      method: 'POST',
      path: '/networks/{networkId}/campaigns',
      tags: ['campaigns'],
      summary: 'Create a campaign',
      description:
        '`advertiser_id` must name an advertiser of this network that is not deleted (else 400 on `advertiser_id`). ' +
        '`status` is draft (default) or active. `ends_at` must be after `starts_at`; `currency` is required with `budget_cents`. ' +
        'The `script` must contain each of `required_lines` word for word (else 400 naming the line).',
      protect: true,
      successDescription: 'Created',
    },
  })
  .input(createCampaignInput)
  .output(campaignSchema)
  .mutation(async ({ ctx, input }) => {
    const row = await ctx.db.transaction((tx) =>
      createCampaign({
        tx,
        networkId: input.networkId,
        advertiserId: input.advertiser_id,
        name: input.name,
        script: input.script,
        talkingPoints: input.talking_points,
        requiredLines: input.required_lines,
        status: input.status,
        startsAt: input.starts_at ? new Date(input.starts_at) : null,
        endsAt: input.ends_at ? new Date(input.ends_at) : null,
        budgetCents: input.budget_cents ?? null,
        currency: input.currency ?? null,
        competitiveSeparation: input.competitive_separation,
      }),
    );
    ctx.http.status = 201;
    return presentCampaign(row);
  });
