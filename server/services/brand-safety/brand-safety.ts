import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable, Tx } from '@/db/client';
import { advertisers, campaigns, offers, podcasts, type OfferTerms } from '@/db/schema';
import { AppError } from '@/server/errors';
import type { FlightRow } from '@/server/services/flights/find-flights';
import { networkPage, type NetworkPage } from '@/server/services/page';
import type { PodcastRow } from '@/server/services/podcasts/find-podcasts';
import { brandSafetyReasons, type Booking, type BrandSafetyReason, type Window } from './rules';

/*
 * Brand safety, the one place every path goes through: making an offer (createOffer, single and
 * bulk), accepting one (acceptOffer) and a flight's eligible podcasts. The rules themselves are
 * pure (rules.ts); this reads their facts.
 *
 * At accept the facts hold at commit. The podcast row is locked first (FOR NO KEY UPDATE), so two
 * accepts for one podcast queue there and the second sees the first's accepted offer; a change of
 * its exclusions or blocks (an UPDATE of that row) queues the same way. The advertiser and campaign
 * rows of this offer and of every offer the podcast holds in its dates are read FOR SHARE (an offer
 * whose dates cannot overlap is neither read nor locked), so a concurrent change of categories or
 * competitive_separation either committed first and is seen, or waits for the accept to commit.
 * Making an offer reads the same rows FOR SHARE (createOffer already holds the podcast's share lock).
 */

const party = {
  campaign: {
    id: campaigns.id,
    name: campaigns.name,
    competitiveSeparation: campaigns.competitiveSeparation,
    startsAt: campaigns.startsAt,
    endsAt: campaigns.endsAt,
  },
  advertiser: { id: advertisers.id, name: advertisers.name, categories: advertisers.categories },
};
type Party = { campaign: Booking['campaign'] & Window; advertiser: Booking['advertiser'] };

const advertiserOfCampaign = and(eq(advertisers.networkId, campaigns.networkId), eq(advertisers.id, campaigns.advertiserId));

/** A campaign of the network with its advertiser (deleted or not: the campaign still names it). */
async function campaignParty(db: Queryable, networkId: string, campaignId: string, lock: boolean): Promise<Party | undefined> {
  const query = db
    .select(party)
    .from(campaigns)
    .innerJoin(advertisers, advertiserOfCampaign)
    .where(and(eq(campaigns.networkId, networkId), eq(campaigns.id, campaignId)));
  const [row] = lock ? await query.for('share') : await query;
  return row;
}

/** When a held offer runs, in SQL: windowOf's rule (its terms' dates, else its campaign's). */
const heldStart = sql`(case when ${offers.terms} is null then ${campaigns.startsAt} else (${offers.terms}->>'starts_at')::timestamptz end)`;
const heldEnd = sql`(case when ${offers.terms} is null then ${campaigns.endsAt} else (${offers.terms}->>'ends_at')::timestamptz end)`;

/** Held offers that can overlap `window` (the pure rule decides; this only spares reading, and locking, the rest). */
function overlapping(window: Window): SQL | undefined {
  return and(
    window.startsAt ? sql`(${heldEnd} is null or ${heldEnd} > ${window.startsAt.toISOString()}::timestamptz)` : undefined,
    window.endsAt ? sql`(${heldStart} is null or ${heldStart} < ${window.endsAt.toISOString()}::timestamptz)` : undefined,
  );
}

/** The accepted offers of these podcasts that run in `window`, each with its campaign and advertiser. */
async function heldOffers(db: Queryable, networkId: string, podcastIds: string[], window: Window, lock: boolean) {
  const query = db
    .select({ podcastId: offers.podcastId, terms: offers.terms, ...party })
    .from(offers)
    .innerJoin(campaigns, and(eq(campaigns.networkId, offers.networkId), eq(campaigns.id, offers.campaignId)))
    .innerJoin(advertisers, advertiserOfCampaign)
    .where(and(eq(offers.networkId, networkId), inArray(offers.podcastId, podcastIds), eq(offers.status, 'accepted'), overlapping(window)));
  const rows = lock ? await query.for('share', { of: [campaigns, advertisers] }) : await query;
  return rows.map((row) => ({ podcastId: row.podcastId, booking: booking(row, windowOf(row.terms, row.campaign)) }));
}

/** An offer runs for its terms' dates (copied from its flight), else for its campaign's; open-ended where those are absent. */
function windowOf(terms: OfferTerms | null, campaign: Window): Window {
  return terms ? { startsAt: new Date(terms.starts_at), endsAt: new Date(terms.ends_at) } : { startsAt: campaign.startsAt, endsAt: campaign.endsAt };
}

const booking = (p: Party, window: Window): Booking => ({ advertiser: p.advertiser, campaign: p.campaign, window });

/**
 * The rules an offer of `campaignId` to `podcastId` breaks, without throwing: exclusions and blocks
 * when it is made; at accept (`accepting`, the offer's terms) competitive separation too, against
 * what the podcast holds — under the locks above.
 */
export async function offerBrandSafety({
  tx,
  networkId,
  campaignId,
  podcastId,
  accepting,
}: {
  tx: Tx;
  networkId: string;
  campaignId: string;
  podcastId: string;
  accepting?: { terms: OfferTerms | null };
}): Promise<BrandSafetyReason[]> {
  const [podcast] = await tx
    .select({ name: podcasts.name, excludedCategories: podcasts.excludedCategories, blockedAdvertiserIds: podcasts.blockedAdvertiserIds })
    .from(podcasts)
    .where(and(eq(podcasts.networkId, networkId), eq(podcasts.id, podcastId)))
    .for(accepting ? 'no key update' : 'share');
  const offered = await campaignParty(tx, networkId, campaignId, true);
  // The callers found both already (an unknown one is their 400 or 404).
  if (!podcast || !offered) return [];
  if (!accepting) return brandSafetyReasons({ podcast, booking: booking(offered, windowOf(null, offered.campaign)) });
  const window = windowOf(accepting.terms, offered.campaign);
  const held = await heldOffers(tx, networkId, [podcastId], window, true);
  return brandSafetyReasons({ podcast, booking: booking(offered, window), held: held.map((h) => h.booking) });
}

/** offerBrandSafety, as a 409 `brand-safety` naming the first rule broken. */
export async function assertBrandSafe(offer: Parameters<typeof offerBrandSafety>[0]): Promise<void> {
  const [broken] = await offerBrandSafety(offer);
  if (broken) throw new AppError('brand-safety', broken.detail);
}

export interface PodcastEligibility {
  /** The podcast's id: the list pages by it. */
  id: string;
  podcast: PodcastRow;
  reasons: BrandSafetyReason[];
}

/**
 * One page of the network's opted-in podcasts, each with the rules an offer of `flight` to it would
 * break at accept as things stand (for the flight's dates). A read: nothing is locked, so a podcast
 * listed as eligible can still be refused when its offer is accepted.
 */
export async function eligiblePodcasts({ flight, ...page }: NetworkPage & { flight: FlightRow }): Promise<PodcastEligibility[]> {
  const { db, networkId } = page;
  const listed = await networkPage(podcasts, page, [eq(podcasts.optInStatus, 'opted_in')]);
  const offered = await campaignParty(db, networkId, flight.campaignId, false);
  if (!offered || listed.length === 0) return listed.map((podcast) => ({ id: podcast.id, podcast, reasons: [] }));
  const window = { startsAt: flight.startsAt, endsAt: flight.endsAt };
  const held = await heldOffers(
    db,
    networkId,
    listed.map((p) => p.id),
    window,
    false,
  );
  const planned = booking(offered, window);
  return listed.map((podcast) => ({
    id: podcast.id,
    podcast,
    reasons: brandSafetyReasons({ podcast, booking: planned, held: held.filter((h) => h.podcastId === podcast.id).map((h) => h.booking) }),
  }));
}
