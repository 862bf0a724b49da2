import { and, eq, lte } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { advertisers, campaigns, creatives, networks, podcasts, voiceConsents } from '@/db/schema';
import type { CreativeRow } from './complete-creative';

/** What the host is shown of a revision beside its own fields: who made it, for which podcast and campaign. */
export interface ReviewParties {
  networkName: string;
  podcastName: string;
  /** The host of the consent the revision was made under (else the podcast's host). */
  hostName: string;
  campaign: { name: string; advertiserName: string; talkingPoints: string[]; requiredLines: string[] };
}

export async function findReviewParties({ db, creative }: { db: Queryable; creative: CreativeRow }): Promise<ReviewParties> {
  const { networkId } = creative;
  const [network] = await db.select({ name: networks.name }).from(networks).where(eq(networks.id, networkId));
  const [podcast] = await db
    .select({ name: podcasts.name, hostName: podcasts.hostName })
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, creative.podcastId)));
  const [campaign] = await db
    .select({
      name: campaigns.name,
      talkingPoints: campaigns.talkingPoints,
      requiredLines: campaigns.requiredLines,
      advertiserName: advertisers.name,
    })
    .from(campaigns)
    .innerJoin(advertisers, and(eq(advertisers.networkId, campaigns.networkId), eq(advertisers.id, campaigns.advertiserId)))
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, creative.campaignId)));
  const [consent] = creative.voiceConsentId
    ? await db
        .select({ hostName: voiceConsents.hostName })
        .from(voiceConsents)
        .where(and(eq(voiceConsents.networkId, networkId), eq(voiceConsents.id, creative.voiceConsentId)))
    : [];
  return {
    networkName: network?.name ?? '',
    podcastName: podcast?.name ?? '',
    hostName: consent?.hostName ?? podcast?.hostName ?? '',
    campaign: {
      name: campaign?.name ?? '',
      advertiserName: campaign?.advertiserName ?? '',
      talkingPoints: campaign?.talkingPoints ?? [],
      requiredLines: campaign?.requiredLines ?? [],
    },
  };
}

/** What the host's review page shows: the revision, who asks and for what, and the revisions before it. */
export interface ReviewLink {
  creative: CreativeRow;
  parties: ReviewParties;
  /** The offer's revisions up to this one, revision 1 first. */
  revisions: CreativeRow[];
}

export async function readReviewLink({ db, creative }: { db: Queryable; creative: CreativeRow }): Promise<ReviewLink> {
  const parties = await findReviewParties({ db, creative });
  const revisions = await db
    .select()
    .from(creatives)
    .where(and(eq(creatives.networkId, creative.networkId), eq(creatives.offerId, creative.offerId), lte(creatives.revision, creative.revision)))
    .orderBy(creatives.revision);
  return { creative, parties, revisions };
}
