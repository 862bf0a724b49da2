import { adCategory, isWithinCategory } from '@/domain/ad-categories/taxonomy';
import type { BrandSafetyRule } from '@/domain/brand-safety';

// Pure (no database code): brand-safety.ts reads the facts, under the locks that make them hold at
// commit, and calls brandSafetyReasons; tests call it with facts of their own.

export interface BrandSafetyReason {
  rule: BrandSafetyRule;
  /** One sentence naming the rule and what it matched. */
  detail: string;
}

/** When an offer runs: its terms' dates, else its campaign's; null is open-ended on that side. */
export interface Window {
  startsAt: Date | null;
  endsAt: Date | null;
}

/** An advertiser's campaign on a podcast for a window: the offer being made or accepted, or one the podcast holds. */
export interface Booking {
  advertiser: { id: string; name: string; categories: string[] };
  campaign: { id: string; name: string; competitiveSeparation: boolean };
  window: Window;
}

export interface PodcastRules {
  name: string;
  excludedCategories: string[];
  blockedAdvertiserIds: string[];
}

/**
 * Every rule of `podcast` that `booking` breaks, blocks and exclusions first. Competitive separation
 * is weighed only against `held` (the podcast's accepted offers), when given: at accept and for
 * eligibility, not when an offer is made.
 *
 * - blocked_advertiser: the podcast names the advertiser.
 * - excluded_category: the podcast excludes one of the advertiser's categories or a category above
 *   it (an exclusion covers its sub-categories; not the other way round: excluding Beer does not
 *   exclude an advertiser classified only as Alcohol).
 * - competitive_separation: a held booking of another advertiser overlaps in time and the two share
 *   a category — the same one, or one within the other — and either campaign asks for separation.
 */
export function brandSafetyReasons({ podcast, booking, held }: { podcast: PodcastRules; booking: Booking; held?: Booking[] }): BrandSafetyReason[] {
  const reasons: BrandSafetyReason[] = [];
  const { advertiser } = booking;
  if (podcast.blockedAdvertiserIds.includes(advertiser.id)) {
    reasons.push({
      rule: 'blocked_advertiser',
      detail: `The podcast '${podcast.name}' blocks the advertiser '${advertiser.name}' (${advertiser.id}).`,
    });
  }
  for (const category of advertiser.categories) {
    const excluded = podcast.excludedCategories.find((exclusion) => isWithinCategory(category, exclusion));
    if (!excluded) continue;
    reasons.push({
      rule: 'excluded_category',
      detail:
        excluded === category
          ? `The podcast '${podcast.name}' excludes the category ${named(excluded)}, one of the advertiser's categories.`
          : `The podcast '${podcast.name}' excludes the category ${named(excluded)}, which covers the advertiser's ${named(category)}.`,
    });
  }
  for (const other of held ?? []) {
    if (other.advertiser.id === advertiser.id) continue;
    if (!booking.campaign.competitiveSeparation && !other.campaign.competitiveSeparation) continue;
    if (!overlap(booking.window, other.window)) continue;
    const shared = sharedCategory(advertiser.categories, other.advertiser.categories);
    if (!shared) continue;
    const asks =
      booking.campaign.competitiveSeparation && other.campaign.competitiveSeparation
        ? 'both campaigns ask'
        : booking.campaign.competitiveSeparation
          ? 'this campaign asks'
          : 'that campaign asks';
    reasons.push({
      rule: 'competitive_separation',
      detail:
        `The podcast '${podcast.name}' already carries the campaign '${other.campaign.name}' (${other.campaign.id}) of ` +
        `'${other.advertiser.name}' ${dates(other.window)}, overlapping these dates, and the advertisers compete in ${shared}; ` +
        `${asks} for competitive separation.`,
    });
  }
  return reasons;
}

/** Whether two windows share a moment; each runs from its start up to (not including) its end. */
export function overlap(a: Window, b: Window): boolean {
  const start = (w: Window) => w.startsAt?.getTime() ?? -Infinity;
  const end = (w: Window) => w.endsAt?.getTime() ?? Infinity;
  return start(a) < end(b) && start(b) < end(a);
}

/** The first pair of categories the two lists share (the same, or one within the other), said in words; undefined when none. */
function sharedCategory(mine: string[], theirs: string[]): string | undefined {
  for (const a of mine) {
    for (const b of theirs) {
      if (a === b) return named(a);
      if (isWithinCategory(a, b)) return `${named(a)}, within their ${named(b)}`;
      if (isWithinCategory(b, a)) return `${named(a)}, which covers their ${named(b)}`;
    }
  }
  return undefined;
}

const named = (id: string) => `'${adCategory(id)?.name ?? id}' (${id})`;

function dates(w: Window): string {
  const day = (d: Date) => d.toISOString();
  if (w.startsAt && w.endsAt) return `from ${day(w.startsAt)} until ${day(w.endsAt)}`;
  if (w.startsAt) return `from ${day(w.startsAt)} on`;
  if (w.endsAt) return `until ${day(w.endsAt)}`;
  return 'without end dates';
}
