import { describe, expect, it } from 'vitest';
import { brandSafetyReasons, overlap, type Booking, type PodcastRules } from './rules';

// The pure rules, with facts of the test's own: tests/services/brand-safety.test.ts reads them from
// Postgres, tests/http/brand-safety.test.ts goes through /v1.

const day = (d: number) => new Date(Date.UTC(2026, 11, d));
const podcast = (rules: Partial<PodcastRules> = {}): PodcastRules => ({
  name: 'Night Owls',
  excludedCategories: [],
  blockedAdvertiserIds: [],
  ...rules,
});
const booking = (
  advertiser: { id: string; categories: string[] },
  campaign: { id?: string; separation?: boolean } = {},
  window = { startsAt: day(1), endsAt: day(15) },
): Booking => ({
  advertiser: { name: `Advertiser ${advertiser.id}`, ...advertiser },
  campaign: { id: campaign.id ?? `cmp_${advertiser.id}`, name: `Campaign of ${advertiser.id}`, competitiveSeparation: campaign.separation ?? false },
  window,
});

describe('brandSafetyReasons', () => {
  it('refuses a blocked advertiser, by id', () => {
    const reasons = brandSafetyReasons({ podcast: podcast({ blockedAdvertiserIds: ['adv_a'] }), booking: booking({ id: 'adv_a', categories: [] }) });
    expect(reasons).toEqual([{ rule: 'blocked_advertiser', detail: "The podcast 'Night Owls' blocks the advertiser 'Advertiser adv_a' (adv_a)." }]);
    expect(brandSafetyReasons({ podcast: podcast({ blockedAdvertiserIds: ['adv_b'] }), booking: booking({ id: 'adv_a', categories: [] }) })).toEqual(
      [],
    );
  });

  it('an exclusion covers the category and its sub-categories, not the category above it', () => {
    const excluded = podcast({ excludedCategories: ['1361'] }); // Gambling
    expect(brandSafetyReasons({ podcast: excluded, booking: booking({ id: 'a', categories: ['1361'] }) })[0]!.detail).toBe(
      "The podcast 'Night Owls' excludes the category 'Gambling' (1361), one of the advertiser's categories.",
    );
    expect(brandSafetyReasons({ podcast: excluded, booking: booking({ id: 'a', categories: ['1004', '1362'] }) })).toEqual([
      {
        rule: 'excluded_category',
        detail: "The podcast 'Night Owls' excludes the category 'Gambling' (1361), which covers the advertiser's 'Casinos' (1362).",
      },
    ]);
    // Excluding Beer does not exclude an advertiser classified only as Alcohol, its parent.
    expect(brandSafetyReasons({ podcast: podcast({ excludedCategories: ['1004'] }), booking: booking({ id: 'a', categories: ['1002'] }) })).toEqual(
      [],
    );
    // Three levels: Business and Industrial (1010) covers Consulting (1013), under Business Services (1012).
    expect(
      brandSafetyReasons({ podcast: podcast({ excludedCategories: ['1010'] }), booking: booking({ id: 'a', categories: ['1013'] }) }),
    ).toHaveLength(1);
  });

  it('separates competitors (a shared category, the same or one within the other) in overlapping dates when either campaign asks', () => {
    const beer = booking({ id: 'a', categories: ['1004'] }, { separation: true });
    const otherBeer = booking({ id: 'b', categories: ['1004'] });
    const [reason] = brandSafetyReasons({ podcast: podcast(), booking: beer, held: [otherBeer] });
    expect(reason).toEqual({
      rule: 'competitive_separation',
      detail:
        "The podcast 'Night Owls' already carries the campaign 'Campaign of b' (cmp_b) of 'Advertiser b' from 2026-12-01T00:00:00.000Z until 2026-12-15T00:00:00.000Z, " +
        "overlapping these dates, and the advertisers compete in 'Beer' (1004); this campaign asks for competitive separation.",
    });
    // The held campaign asking is enough.
    expect(brandSafetyReasons({ podcast: podcast(), booking: otherBeer, held: [beer] })[0]!.detail).toMatch(/that campaign asks/);
    // A parent and its child are shared: Alcohol (1002) and Beer (1004), either way round.
    const alcohol = booking({ id: 'c', categories: ['1002'] });
    expect(brandSafetyReasons({ podcast: podcast(), booking: beer, held: [alcohol] })[0]!.detail).toMatch(
      /'Beer' \(1004\), within their 'Alcohol' \(1002\)/,
    );
    expect(
      brandSafetyReasons({ podcast: podcast(), booking: booking({ id: 'c', categories: ['1002'] }, { separation: true }), held: [otherBeer] }),
    ).toHaveLength(1);
    // Siblings are not competitors: Beer and Wine.
    expect(brandSafetyReasons({ podcast: podcast(), booking: beer, held: [booking({ id: 'd', categories: ['1007'] })] })).toEqual([]);
  });

  it('does not separate when no campaign asks, the dates do not overlap, the advertiser is the same, or nothing is held', () => {
    const beer = booking({ id: 'a', categories: ['1004'] });
    const rival = booking({ id: 'b', categories: ['1004'] });
    expect(brandSafetyReasons({ podcast: podcast(), booking: beer, held: [rival] })).toEqual([]);
    const asking = booking({ id: 'a', categories: ['1004'] }, { separation: true }, { startsAt: day(15), endsAt: day(20) });
    // Back to back: one ends as the other starts.
    expect(brandSafetyReasons({ podcast: podcast(), booking: asking, held: [rival] })).toEqual([]);
    expect(
      brandSafetyReasons({ podcast: podcast(), booking: booking({ id: 'a', categories: ['1004'] }, { separation: true }), held: [beer] }),
    ).toEqual([]);
    expect(brandSafetyReasons({ podcast: podcast(), booking: booking({ id: 'a', categories: ['1004'] }, { separation: true }) })).toEqual([]);
  });

  it('lists every rule broken: the block, each excluded category, each competitor', () => {
    const rules = podcast({ blockedAdvertiserIds: ['a'], excludedCategories: ['1002', '1361'] });
    const held = [booking({ id: 'b', categories: ['1004'] }), booking({ id: 'c', categories: ['1366'] })];
    const reasons = brandSafetyReasons({ podcast: rules, booking: booking({ id: 'a', categories: ['1004', '1366'] }, { separation: true }), held });
    expect(reasons.map((r) => r.rule)).toEqual([
      'blocked_advertiser',
      'excluded_category',
      'excluded_category',
      'competitive_separation',
      'competitive_separation',
    ]);
  });
});

describe('overlap', () => {
  it('treats windows as from start up to end, and a missing bound as open', () => {
    expect(overlap({ startsAt: day(1), endsAt: day(5) }, { startsAt: day(4), endsAt: day(9) })).toBe(true);
    expect(overlap({ startsAt: day(1), endsAt: day(5) }, { startsAt: day(5), endsAt: day(9) })).toBe(false);
    expect(overlap({ startsAt: null, endsAt: null }, { startsAt: day(5), endsAt: day(9) })).toBe(true);
    expect(overlap({ startsAt: day(10), endsAt: null }, { startsAt: null, endsAt: day(9) })).toBe(false);
    expect(overlap({ startsAt: day(8), endsAt: null }, { startsAt: null, endsAt: day(9) })).toBe(true);
  });
});
