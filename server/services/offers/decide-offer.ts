import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { newId } from '@/db/ids';
import { campaigns, creatives, offers, podcasts } from '@/db/schema';
import { queueSynthesis, synthesisStart } from '@/server/services/creatives/consent-gate';
import { conflict, notFound } from '@/server/errors';
import { assertBrandSafe } from '@/server/services/brand-safety/brand-safety';
import { recordEvent } from '@/server/services/events/record-event';
import { findOffer, offerStatus, type OfferRow } from './find-offers';
import { assertFlightBookable, lockFlightToOffer } from './flight-offers';
import { updateVersioned } from '@/server/services/optimistic-lock';
import { newTrackingToken } from '@/server/services/tracking/tracking-token';
import { trackingUrl } from '@/server/services/tracking/tracking-url';

/** Lock the offer and make sure it can still be decided. Concurrent deciders queue here; the first wins. */
async function lockOpenOffer(tx: Tx, networkId: string, offerId: string): Promise<OfferRow> {
  const offer = await findOffer({ db: tx, networkId, id: offerId, lock: 'update' });
  if (!offer) throw notFound('Offer');
  const status = offerStatus(offer);
  if (status !== 'open') throw conflict(`The offer is no longer open (it is ${status}).`);
  return offer;
}

/**
 * An offer on a flight is accepted under the flight's share lock, taken before the offer's lock (the
 * order of flight-offers.ts): the flight's terms cannot change, nor the flight be deleted, until
 * this accept has committed; a flight that was deleted or has ended is a 409 here.
 */
async function lockBookedFlight(tx: Tx, networkId: string, offerId: string): Promise<void> {
  const offer = await findOffer({ db: tx, networkId, id: offerId });
  if (!offer?.flightId) return;
  const flight = await lockFlightToOffer({ tx, networkId, flightId: offer.flightId });
  assertFlightBookable(flight!);
}

/**
 * Accept: the offer update, the creative, the offer.accepted event and the synthesis job commit
 * together or not at all. The creative is generating under the host's consent that covers the
 * campaign's advertiser, or awaiting_consent (no job) until one is granted (consent-gate.ts).
 */
export async function acceptOffer({ tx, networkId, offerId }: { tx: Tx; networkId: string; offerId: string }) {
  await lockBookedFlight(tx, networkId, offerId);
  const offer = await lockOpenOffer(tx, networkId, offerId);
  await assertBrandSafe({ tx, networkId, campaignId: offer.campaignId, podcastId: offer.podcastId, accepting: offer });
  const [campaign] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, offer.campaignId)));
  const [podcast] = await tx
    .select()
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, offer.podcastId)));
  // Under the podcast's lock (assertBrandSafe took it): a grant racing this accept waits for it and then sees the creative.
  const start = await synthesisStart({ tx, networkId, podcastId: offer.podcastId, campaignId: offer.campaignId });
  const [creative] = await tx
    .insert(creatives)
    .values({
      id: newId('creative'),
      networkId,
      offerId: offer.id,
      campaignId: offer.campaignId,
      podcastId: offer.podcastId,
      script: campaign!.script.trim() || campaign!.name,
      voice: podcast!.voice,
      ...start,
    })
    .returning();
  const [accepted] = await updateVersioned({
    tx,
    table: offers,
    networkId,
    set: { status: 'accepted', creativeId: creative!.id, decidedAt: sql`now()`, trackingToken: newTrackingToken() },
    where: and(eq(offers.id, offer.id), eq(offers.status, 'open')),
  }).returning();
  await recordEvent({
    tx,
    networkId,
    type: 'offer.accepted',
    data: {
      offer_id: offer.id,
      campaign_id: offer.campaignId,
      podcast_id: offer.podcastId,
      creative_id: creative!.id,
      tracking_url: trackingUrl(accepted!.trackingToken)!,
    },
  });
  await queueSynthesis({ tx, creative: creative! });
  return accepted!;
}

export async function rejectOffer({ tx, networkId, offerId, reason }: { tx: Tx; networkId: string; offerId: string; reason: string | undefined }) {
  const offer = await lockOpenOffer(tx, networkId, offerId);
  const [rejected] = await updateVersioned({
    tx,
    table: offers,
    networkId,
    set: { status: 'rejected', rejectReason: reason ?? null, decidedAt: sql`now()` },
    where: eq(offers.id, offer.id),
  }).returning();
  await recordEvent({
    tx,
    networkId,
    type: 'offer.rejected',
    data: { offer_id: offer.id, campaign_id: offer.campaignId, podcast_id: offer.podcastId, reason: reason ?? null },
  });
  return rejected!;
}
