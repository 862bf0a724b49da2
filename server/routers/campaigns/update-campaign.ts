import { expectedVersion } from '@/server/http/locking';
import { sentFields } from '@/server/http/patch';
import { updateCampaign, type CampaignChanges } from '@/server/services/campaigns/update-campaign';
import { networkProcedure } from '@/server/trpc';
import { campaignSchema, dateOrNull, presentCampaign } from './campaign.types';
import { updateCampaignInput } from './update-campaign.types';

export const updateCampaignRoute = networkProcedure('administrator')
  .meta({
    errors: {
      'not-found': 'No campaign with this id in the network.',
      conflict: 'The version is stale, the status move is not allowed, or the campaign is archived.',
    },
    openapi: {
      method: 'PATCH',
      path: '/networks/{networkId}/campaigns/{campaignId}',
      tags: ['campaigns'],
      summary: 'Update a campaign or change its status',
      description:
        'Optimistically locked (If-Match or `version`; stale → 409). A status change the state machine does not allow → 409; ' +
        'an archived campaign cannot be changed (409). The advertiser of a campaign cannot be changed. The script as it will be must contain ' +
        'each required line as they will be, word for word (else 400 naming the line); creatives made before keep their scripts.',
      protect: true,
    },
  })
  .input(updateCampaignInput)
  .output(campaignSchema)
  .mutation(async ({ ctx, input }) => {
    const expected = expectedVersion(ctx.header('if-match'), input.version);
    const changes = sentFields<CampaignChanges>({
      name: input.name,
      script: input.script,
      talkingPoints: input.talking_points,
      requiredLines: input.required_lines,
      status: input.status,
      startsAt: dateOrNull(input.starts_at),
      endsAt: dateOrNull(input.ends_at),
      budgetCents: input.budget_cents,
      currency: input.currency,
      competitiveSeparation: input.competitive_separation,
    });
    const row = await ctx.db.transaction((tx) =>
      updateCampaign({ tx, networkId: input.networkId, campaignId: input.campaignId, changes, expectedVersion: expected }),
    );
    return presentCampaign(row);
  });
