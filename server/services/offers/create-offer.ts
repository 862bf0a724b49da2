import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { campaigns, offers, podcasts } from '@/db/schema';
import { badRequest, conflict } from '@/server/errors';

export interface NewOffer {
  campaignId: string;
  podcastId: string;
  priceCents?: number | undefined;
  currency?: string | undefined;
  expiresAt?: Date | undefined;
}

/** Campaigns that may be offered: draft (to line up inventory) and active. */
export const OFFERABLE_CAMPAIGN_STATUSES = ['draft', 'active'] as const;

export async function createOffer({ tx, networkId, ...input }: { tx: Tx; networkId: string } & NewOffer) {
  const [campaign] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, input.campaignId)));
  if (!campaign) throw badRequest('campaign_id is not a campaign of this network.', [{ path: 'campaign_id', message: 'Unknown campaign.' }]);
  const [podcast] = await tx
    .select()
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, input.podcastId)))
    .for('share');
  if (!podcast) throw badRequest('podcast_id is not a podcast of this network.', [{ path: 'podcast_id', message: 'Unknown podcast.' }]);
  if (!(OFFERABLE_CAMPAIGN_STATUSES as readonly string[]).includes(campaign.status)) {
    throw conflict(`Offers can be made only for draft or active campaigns; this campaign is ${campaign.status}.`);
  }
  if (podcast.optInStatus !== 'opted_in') throw conflict('Offers can be made only to podcasts that have opted in.');
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw badRequest('expires_at must be in the future.', [{ path: 'expires_at', message: 'Must be in the future.' }]);
  }
  if ((input.priceCents === undefined) !== (input.currency === undefined)) {
    throw badRequest('price_cents and currency go together.', [
      { path: input.currency ? 'price_cents' : 'currency', message: 'Required with the other.' },
    ]);
  }
  const [row] = await tx
    .insert(offers)
    .values({
      id: newId('offer'),
      networkId,
      campaignId: campaign.id,
      podcastId: podcast.id,
      priceCents: input.priceCents ?? null,
      currency: input.currency ?? null,
      expiresAt: input.expiresAt ?? null,
    })
    .returning();
  return row!;
}
