import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { campaigns, offers, podcasts } from '@/db/schema';
import { badRequest, conflict } from '@/server/errors';
import type { CampaignRow } from '@/server/services/campaigns/find-campaigns';
import { flightToOffer, offerTerms } from './flight-offers';
import { assertBrandSafe } from '@/server/services/brand-safety/brand-safety';

export interface NewOffer {
  /** Required without a flight; with one it may be left out (the flight's campaign), or must be that one. */
  campaignId?: string | undefined;
  podcastId: string;
  /** An offer on a flight carries the flight's terms (`terms`), copied now; its price is the flight's. */
  flightId?: string | undefined;
  /** With a flight: this podcast's amount in place of the flight's (in the flight's currency). */
  amountCents?: number | undefined;
  /** With a flight: this podcast's share of the flight's impression goal (not above it). */
  impressionGoal?: number | undefined;
  priceCents?: number | undefined;
  currency?: string | undefined;
  expiresAt?: Date | undefined;
}

/** Campaigns that may be offered: draft (to line up inventory) and active. */
export const OFFERABLE_CAMPAIGN_STATUSES = ['draft', 'active'] as const;

/**
 * Make one offer: the single POST and each podcast of a flight's bulk POST come here, so every rule
 * holds for both. On a flight, the flight is share-locked to the end of the transaction (see
 * flight-offers.ts) and its terms are copied into the offer, whose price_cents and currency mirror
 * them for readers that know no terms. Every refusal comes before the one write, the insert at the
 * end: the bulk POST relies on it to go on past one podcast's refusal in the same transaction.
 */
export async function createOffer({ tx, networkId, ...input }: { tx: Tx; networkId: string } & NewOffer) {
  const flight = input.flightId === undefined ? undefined : await flightToOffer({ tx, networkId, flightId: input.flightId });
  const terms = offerTerms(flight, input);
  const campaignId = flight?.campaignId ?? input.campaignId;
  if (campaignId === undefined) {
    throw badRequest('campaign_id is required (or flight_id: the offer is then for the flight’s campaign).', [
      { path: 'campaign_id', message: 'Required without flight_id.' },
    ]);
  }
  const [campaign] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, campaignId)));
  if (!campaign) throw badRequest('campaign_id is not a campaign of this network.', [{ path: 'campaign_id', message: 'Unknown campaign.' }]);
  const [podcast] = await tx
    .select()
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, input.podcastId)))
    .for('share');
  if (!podcast) throw badRequest('podcast_id is not a podcast of this network.', [{ path: 'podcast_id', message: 'Unknown podcast.' }]);
  assertCampaignOfferable(campaign);
  if (podcast.optInStatus !== 'opted_in') throw conflict('Offers can be made only to podcasts that have opted in.');
  await assertBrandSafe({ tx, networkId, campaignId: campaign.id, podcastId: podcast.id });
  assertExpiresInFuture(input.expiresAt);
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
      flightId: flight?.id ?? null,
      terms,
      priceCents: terms?.pricing.amount_cents ?? input.priceCents ?? null,
      currency: terms?.pricing.currency ?? input.currency ?? null,
      expiresAt: input.expiresAt ?? null,
    })
    .returning();
  return row!;
}

/** Offers are made only for draft or active campaigns (409). */
export function assertCampaignOfferable(campaign: Pick<CampaignRow, 'status'>): void {
  if (!(OFFERABLE_CAMPAIGN_STATUSES as readonly string[]).includes(campaign.status)) {
    throw conflict(`Offers can be made only for draft or active campaigns; this campaign is ${campaign.status}.`);
  }
}

export function assertExpiresInFuture(expiresAt: Date | undefined): void {
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw badRequest('expires_at must be in the future.', [{ path: 'expires_at', message: 'Must be in the future.' }]);
  }
}
