import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { campaigns } from '@/db/schema';
import { badRequest } from '@/server/errors';
import { findAdvertiser } from '@/server/services/advertisers/find-advertisers';
import { assertCampaignTerms, type CampaignTerms } from './campaign-rules';
import type { CampaignRow } from './find-campaigns';
import type { CampaignStatus } from './transitions';

export interface CreateCampaignInput extends CampaignTerms {
  networkId: string;
  advertiserId: string;
  name: string;
  script: string;
  status: CampaignStatus;
}

/**
 * Create a campaign for a live advertiser of the same network. An unknown,
 * deleted or foreign advertiser is a 400 on `advertiser_id` (the request is
 * wrong, the URL is fine). The advertiser row is share-locked so a concurrent
 * delete either waits for this campaign (and then sees it) or wins first.
 */
export async function createCampaign({ tx, ...input }: { tx: Tx } & CreateCampaignInput): Promise<CampaignRow> {
  const advertiser = await findAdvertiser({ db: tx, networkId: input.networkId, advertiserId: input.advertiserId, lock: 'share' });
  if (!advertiser) {
    throw badRequest('advertiser_id does not name an advertiser of this network.', [
      { path: 'advertiser_id', message: 'No advertiser with this id in this network.' },
    ]);
  }
  assertCampaignTerms(input);
  const [row] = await tx
    .insert(campaigns)
    .values({
      id: newId('campaign'),
      networkId: input.networkId,
      advertiserId: advertiser.id,
      name: input.name,
      script: input.script,
      status: input.status,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      budgetCents: input.budgetCents,
      currency: input.currency,
    })
    .returning();
  return row!;
}
