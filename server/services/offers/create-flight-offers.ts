import type { Tx } from '@/db/client';
import { AppError, ERROR_KINDS, notFound } from '@/server/errors';
import { findCampaign } from '@/server/services/campaigns/find-campaigns';
import { assertCampaignOfferable, assertExpiresInFuture, createOffer } from './create-offer';
import type { OfferRow } from './find-offers';
import { assertFlightBookable, lockFlightToOffer, offerTerms } from './flight-offers';

/** One podcast's outcome: its offer, or the refusal that createOffer gave it. */
export type FlightOfferOutcome = { podcastId: string; offer: OfferRow } | { podcastId: string; refusal: AppError };

/**
 * Offer a flight to many podcasts at once, in the caller's one transaction. What does not depend
 * on the podcast is checked once, first, and refuses the whole request: the flight (unknown,
 * another network's or deleted → 404; ended → 409), the amount and goal against it (400), the
 * campaign (not draft or active → 409), expires_at (400). Then each podcast, in order, goes through
 * createOffer — the single POST's function, every rule included. createOffer refuses before it
 * writes (its one insert is its last statement), so a podcast's refusal (4xx) leaves nothing behind
 * and the transaction goes on to the next; no savepoint is needed (200 of them would overflow
 * Postgres' per-transaction cache of subtransactions, which slows every other session's snapshots
 * while this transaction is open). Anything else (a 5xx, a deadlock) fails the whole request.
 */
export async function createFlightOffers({
  tx,
  networkId,
  flightId,
  podcastIds,
  amountCents,
  impressionGoal,
  expiresAt,
}: {
  tx: Tx;
  networkId: string;
  flightId: string;
  podcastIds: string[];
  amountCents?: number | undefined;
  impressionGoal?: number | undefined;
  expiresAt?: Date | undefined;
}): Promise<FlightOfferOutcome[]> {
  const flight = await lockFlightToOffer({ tx, networkId, flightId });
  if (!flight || flight.deletedAt) throw notFound('Flight');
  assertFlightBookable(flight);
  offerTerms(flight, { amountCents, impressionGoal });
  const campaign = await findCampaign({ db: tx, networkId, campaignId: flight.campaignId });
  assertCampaignOfferable(campaign!);
  assertExpiresInFuture(expiresAt);

  const outcomes: FlightOfferOutcome[] = [];
  for (const podcastId of podcastIds) {
    try {
      const offer = await createOffer({ tx, networkId, flightId, podcastId, amountCents, impressionGoal, expiresAt });
      outcomes.push({ podcastId, offer });
    } catch (error) {
      if (!(error instanceof AppError) || ERROR_KINDS[error.kind].status >= 500) throw error;
      outcomes.push({ podcastId, refusal: error });
    }
  }
  return outcomes;
}
