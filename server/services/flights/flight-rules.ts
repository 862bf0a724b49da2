import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { flights } from '@/db/schema';
import type { PricingModel } from '@/domain/statuses';
import { badRequest, conflict, notFound, type FieldError } from '@/server/errors';
import { findCampaign, type CampaignRow } from '@/server/services/campaigns/find-campaigns';
import { versionToWrite } from '@/server/services/optimistic-lock';
import { findFlight, type FlightRow } from './find-flights';

/** The dates and pricing of a flight, as they will be after a write. */
export interface FlightTerms {
  startsAt: Date;
  endsAt: Date;
  pricingModel: PricingModel;
  impressionGoal: number | null;
}

/**
 * The live flight a PATCH or DELETE writes (404 when there is none), locked as its UPDATE locks it
 * (`no key update`) until the transaction ends, and the version the write is conditional on (a stale one → 409). Locked before
 * its offers are looked at: an accept holds the flight's share lock (offers/flight-offers.ts), so
 * the write sees every offer accepted before it, and no accept commits under it meanwhile.
 */
export async function flightToWrite({
  tx,
  networkId,
  flightId,
  expectedVersion,
}: {
  tx: Tx;
  networkId: string;
  flightId: string;
  expectedVersion: number | undefined;
}): Promise<{ current: FlightRow; version: number }> {
  const current = await findFlight({ db: tx, networkId, flightId, lock: 'no key update' });
  if (!current) throw notFound('Flight');
  return { current, version: versionToWrite('Flight', current.version, expectedVersion) };
}

/**
 * The campaign a flight is written under, share-locked until the transaction ends, so it cannot
 * be archived or have its dates changed while the flight is checked against them. An archived
 * campaign is final: its flights can no longer be added, changed or deleted (409).
 */
export async function campaignTakingFlights({ tx, networkId, campaignId }: { tx: Tx; networkId: string; campaignId: string }): Promise<CampaignRow> {
  const campaign = await findCampaign({ db: tx, networkId, campaignId, lock: 'share' });
  if (!campaign) throw notFound('Campaign');
  if (campaign.status === 'archived') throw conflict('This campaign is archived: its flights can no longer be added, changed or deleted.');
  return campaign;
}

/** Rules across fields and against the campaign's dates (when it has them), on the values a write would leave (400 naming the field). */
export function assertFlightTerms(terms: FlightTerms, campaign: Pick<CampaignRow, 'startsAt' | 'endsAt'>): void {
  const errors: FieldError[] = [];
  if (terms.endsAt.getTime() <= terms.startsAt.getTime()) errors.push({ path: 'ends_at', message: 'ends_at must be after starts_at.' });
  if (campaign.startsAt && terms.startsAt.getTime() < campaign.startsAt.getTime()) {
    errors.push({ path: 'starts_at', message: `starts_at must not be before the campaign starts (${campaign.startsAt.toISOString()}).` });
  }
  if (campaign.endsAt && terms.endsAt.getTime() > campaign.endsAt.getTime()) {
    errors.push({ path: 'ends_at', message: `ends_at must not be after the campaign ends (${campaign.endsAt.toISOString()}).` });
  }
  if (terms.pricingModel === 'cpm' && terms.impressionGoal === null) {
    errors.push({ path: 'impression_goal', message: 'impression_goal is required when pricing.model is cpm.' });
  }
  const first = errors[0];
  if (first) throw badRequest(`Invalid request: ${first.path}: ${first.message}`, errors);
}

/**
 * A campaign's dates may change only around its flights: 409 naming the first flight (not
 * deleted, ended ones too) that the new `startsAt`/`endsAt` would leave outside. The caller holds
 * the campaign's row lock, so no flight is written meanwhile (a flight's write share-locks the
 * campaign, see campaignTakingFlights).
 */
export async function assertFlightsInside({
  tx,
  networkId,
  campaignId,
  startsAt,
  endsAt,
}: {
  tx: Tx;
  networkId: string;
  campaignId: string;
  startsAt: Date | null;
  endsAt: Date | null;
}): Promise<void> {
  const outside = or(startsAt ? lt(flights.startsAt, startsAt) : undefined, endsAt ? gt(flights.endsAt, endsAt) : undefined);
  if (!outside) return;
  const [flight] = await tx
    .select({ id: flights.id, name: flights.name, startsAt: flights.startsAt, endsAt: flights.endsAt })
    .from(flights)
    .where(and(eq(flights.networkId, networkId), eq(flights.campaignId, campaignId), isNull(flights.deletedAt), outside))
    .orderBy(flights.id)
    .limit(1);
  if (flight) {
    throw conflict(
      `Flight ${flight.id} ("${flight.name}", ${flight.startsAt.toISOString()} to ${flight.endsAt.toISOString()}) would fall outside the ` +
        "campaign's dates: a campaign's flights stay inside them. Move or delete the flight first.",
    );
  }
}
