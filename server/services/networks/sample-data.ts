import type { Tx } from '@/db/client';
import { createAdvertiser } from '@/server/services/advertisers/create-advertiser';
import { createCampaign } from '@/server/services/campaigns/create-campaign';
import { createOffer } from '@/server/services/offers/create-offer';
import { acceptOffer, rejectOffer } from '@/server/services/offers/decide-offer';
import { createPodcast } from '@/server/services/podcasts/create-podcast';
import { optInPodcast } from '@/server/services/podcasts/opt-in';
import { SAMPLE_ADVERTISERS, SAMPLE_CAMPAIGNS, SAMPLE_CURRENCY, SAMPLE_OFFER_DAYS, SAMPLE_OFFERS, SAMPLE_PODCASTS } from './sample-data.content';

/** How many of each thing fillWithSampleData made. */
export interface SampleDataSummary {
  advertisers: number;
  campaigns: number;
  podcasts: number;
  offers: number;
}

const DAY_MS = 86_400_000;

/**
 * Fill a new, empty sandbox network with a small podcast ad business (sample-data.content.ts):
 * advertisers, upcoming campaigns, shows (one not yet opted in) and offers left open, accepted and
 * rejected, so a first look at the console or the API shows the workflow instead of empty lists.
 * Every row is made by the service the API calls, on the caller's transaction: the same rules and
 * events (and the accepted offer's creative with its synthesis job), and nothing if it rolls back.
 */
export async function fillWithSampleData({ tx, networkId }: { tx: Tx; networkId: string }): Promise<SampleDataSummary> {
  const today = new Date().setUTCHours(0, 0, 0, 0);
  const daysAhead = (days: number) => new Date(today + days * DAY_MS);

  const advertiserIds = await createEach(SAMPLE_ADVERTISERS, (fields) => createAdvertiser({ tx, networkId, fields }));
  const campaignIds = await createEach(SAMPLE_CAMPAIGNS, ({ advertiser, startsInDays, runsForDays, ...campaign }) =>
    createCampaign({
      tx,
      networkId,
      advertiserId: advertiserIds[advertiser],
      ...campaign,
      startsAt: daysAhead(startsInDays),
      endsAt: daysAhead(startsInDays + runsForDays),
      currency: SAMPLE_CURRENCY,
    }),
  );
  const podcastIds = await createEach(SAMPLE_PODCASTS, async ({ optedIn, ...fields }) => {
    const podcast = await createPodcast({ tx, networkId, fields });
    return optedIn ? optInPodcast({ tx, networkId, podcastId: podcast.id }) : podcast;
  });
  for (const { campaign, podcast, priceCents, decision } of SAMPLE_OFFERS) {
    const offer = await createOffer({
      tx,
      networkId,
      campaignId: campaignIds[campaign],
      podcastId: podcastIds[podcast],
      priceCents,
      currency: SAMPLE_CURRENCY,
      expiresAt: daysAhead(SAMPLE_OFFER_DAYS),
    });
    if (decision === 'accept') await acceptOffer({ tx, networkId, offerId: offer.id });
    else if (decision) await rejectOffer({ tx, networkId, offerId: offer.id, reason: decision.reject });
  }
  return {
    advertisers: Object.keys(advertiserIds).length,
    campaigns: Object.keys(campaignIds).length,
    podcasts: Object.keys(podcastIds).length,
    offers: SAMPLE_OFFERS.length,
  };
}

/** Create each sample in turn (a transaction runs one statement at a time): the ids made, under the samples' keys. */
async function createEach<K extends string, T>(samples: Record<K, T>, create: (sample: T) => Promise<{ id: string }>): Promise<Record<K, string>> {
  const ids = {} as Record<K, string>;
  for (const key of Object.keys(samples) as K[]) ids[key] = (await create(samples[key])).id;
  return ids;
}
