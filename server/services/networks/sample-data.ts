import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { voiceConsents } from '@/db/schema';
import { VOICE_CONSENT_LINK_DAYS } from '@/domain/voice-consent';
import { generateSecretToken, hashToken } from '@/server/auth/tokens';
import { createAdvertiser } from '@/server/services/advertisers/create-advertiser';
import { createCampaign } from '@/server/services/campaigns/create-campaign';
import { createOffer } from '@/server/services/offers/create-offer';
import { acceptOffer, rejectOffer } from '@/server/services/offers/decide-offer';
import { createPodcast } from '@/server/services/podcasts/create-podcast';
import { optInPodcast } from '@/server/services/podcasts/opt-in';
import { grantVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { CURRENT_STATEMENT_VERSION } from '@/server/services/voice-consents/statement';
import {
  SAMPLE_ADVERTISERS,
  SAMPLE_CAMPAIGNS,
  SAMPLE_CURRENCY,
  SAMPLE_OFFER_DAYS,
  SAMPLE_OFFERS,
  SAMPLE_PODCASTS,
  type SampleConsent,
  type SamplePodcast,
} from './sample-data.content';

/** How many of each thing fillWithSampleData made. */
export interface SampleDataSummary {
  advertisers: number;
  campaigns: number;
  podcasts: number;
  /** Voice consents its hosts granted. */
  consents: number;
  offers: number;
}

const DAY_MS = 86_400_000;

/**
 * Fill a new, empty sandbox network with a small podcast ad business (sample-data.content.ts):
 * advertisers, upcoming campaigns, shows (one not yet opted in), the voice consents most hosts
 * granted, and offers left open, accepted and rejected, so a first look at the console or the API
 * shows the workflow instead of empty lists: one accepted offer's creative generating under its
 * host's consent (then pending their approval), the other's awaiting a consent not yet asked for.
 * Every row is made by the service the API calls, on the caller's transaction: the same rules and
 * events (and the synthesis job of the creative that may be made), and nothing if it rolls back.
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
  const podcastIds = await createEach(SAMPLE_PODCASTS, async ({ optedIn, consent: _, ...fields }: SamplePodcast) => {
    const podcast = await createPodcast({ tx, networkId, fields });
    return optedIn ? optInPodcast({ tx, networkId, podcastId: podcast.id }) : podcast;
  });
  // The hosts' consents before any offer is accepted, as a network asks a show's host when it joins.
  let consents = 0;
  for (const key of Object.keys(SAMPLE_PODCASTS) as Array<keyof typeof SAMPLE_PODCASTS>) {
    const sample: SamplePodcast = SAMPLE_PODCASTS[key];
    if (!sample.consent) continue;
    await grantSampleConsent({
      tx,
      networkId,
      podcastId: podcastIds[key],
      hostName: sample.hostName,
      consent: sample.consent,
      advertiserIds: (sample.consent.advertisers ?? []).map((a) => advertiserIds[a]),
      expiresAt: sample.consent.forDays === undefined ? null : daysAhead(sample.consent.forDays),
    });
    consents++;
  }
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
    consents,
    offers: SAMPLE_OFFERS.length,
  };
}

/**
 * A host's consent, granted: the request as requestVoiceConsent stores it but mailed to nobody (the
 * sample hosts are made up; its link's token is thrown away), then the host's grant through the
 * service their link calls — the current statement recorded, `voice_consent.granted`, the audit row.
 */
async function grantSampleConsent({
  tx,
  networkId,
  podcastId,
  hostName,
  consent,
  advertiserIds,
  expiresAt,
}: {
  tx: Tx;
  networkId: string;
  podcastId: string;
  hostName: string;
  consent: SampleConsent;
  advertiserIds: string[];
  expiresAt: Date | null;
}): Promise<void> {
  const linkEnd = Date.now() + VOICE_CONSENT_LINK_DAYS * DAY_MS;
  const [asked] = await tx
    .insert(voiceConsents)
    .values({
      id: newId('voiceConsent'),
      networkId,
      podcastId,
      hostName,
      hostEmail: consent.hostEmail,
      scope: advertiserIds.length > 0 ? 'advertisers' : 'all_campaigns',
      advertiserIds,
      expiresAt,
      tokenHash: hashToken(generateSecretToken('vcl')),
      linkExpiresAt: new Date(expiresAt ? Math.min(linkEnd, expiresAt.getTime()) : linkEnd),
    })
    .returning();
  await grantVoiceConsent({ tx, consent: asked!, statementVersion: CURRENT_STATEMENT_VERSION, userAgent: undefined });
}

/** Create each sample in turn (a transaction runs one statement at a time): the ids made, under the samples' keys. */
async function createEach<K extends string, T>(samples: Record<K, T>, create: (sample: T) => Promise<{ id: string }>): Promise<Record<K, string>> {
  const ids = {} as Record<K, string>;
  for (const key of Object.keys(samples) as K[]) ids[key] = (await create(samples[key])).id;
  return ids;
}
