import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { offers, type OfferTerms } from '@/db/schema';
import { api, expectProblem, type Page } from '@/tests/support/api';
import { flightRow, networkWithKeys, offerRow, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

// Issue 37's brand safety through /v1: advertisers' categories, podcasts' exclusions and blocks,
// campaigns' competitive separation, the 409 brand-safety when an offer is made or accepted, a
// flight's eligible podcasts, and two accepts racing for one podcast.

interface Advertiser {
  id: string;
  categories: string[];
  version: number;
}
interface Podcast {
  id: string;
  name: string;
  excluded_categories: string[];
  blocked_advertiser_ids: string[];
  version: number;
}
interface Campaign {
  id: string;
  name: string;
  competitive_separation: boolean;
  version: number;
}
interface Offer {
  id: string;
  status: string;
}
interface Eligibility {
  podcast: Podcast;
  eligible: boolean;
  reasons: Array<{ rule: string; detail: string }>;
}

const GAMBLING = '1361';
const CASINOS = '1362';
const ALCOHOL = '1002';
const BEER = '1004';
const WINE = '1007';

/** A network with an administrator and a read_only key, and calls bound to it. */
async function network() {
  const n = await networkWithKeys();
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api<T>(method, `/networks/${n.id}${path}`, { token: n.admin, body, headers });
  const read = <T = Record<string, unknown>>(path: string) => api<T>('GET', `/networks/${n.id}${path}`, { token: n.reader });
  const advertiser = async (categories: string[], name = `Advertiser ${categories.join('+')}`) => {
    const res = await call<Advertiser>('POST', '/advertisers', { name, categories });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const campaign = async (advertiserId: string, body: Record<string, unknown> = {}) => {
    const res = await call<Campaign>('POST', '/campaigns', {
      name: 'Campaign',
      advertiser_id: advertiserId,
      status: 'active',
      script: 'Hello.',
      ...body,
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const podcast = async (body: Record<string, unknown> = {}) => {
    const res = await call<Podcast>('POST', '/podcasts', { name: 'Night Owls', host_name: 'Sam', ...body });
    expect(res.status, res.text).toBe(201);
    expect((await call('POST', `/podcasts/${res.body.id}/opt-in`)).status).toBe(200);
    return res.body;
  };
  const offer = (campaignId: string, podcastId: string) => call<Offer>('POST', '/offers', { campaign_id: campaignId, podcast_id: podcastId });
  const madeOffer = async (campaignId: string, podcastId: string) => {
    const res = await offer(campaignId, podcastId);
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const accept = (offerId: string) => call<Offer>('POST', `/offers/${offerId}/accept`);
  return { ...n, call, read, advertiser, campaign, podcast, offer, madeOffer, accept };
}

describe('the rules’ fields: advertisers’ categories, podcasts’ exclusions and blocks, campaigns’ separation', () => {
  it('advertisers take taxonomy ids, each once, at most 10; an unknown id is a 400 naming categories and the id', async () => {
    const n = await network();
    const made = await n.call<Advertiser>('POST', '/advertisers', { name: 'Lucky', categories: [CASINOS, BEER, CASINOS] });
    expect(made.status).toBe(201);
    expect(made.body.categories).toEqual([CASINOS, BEER]);
    expect((await n.read<Advertiser>(`/advertisers/${made.body.id}`)).body.categories).toEqual([CASINOS, BEER]);
    expect((await n.read<Page<Advertiser>>('/advertisers')).body.items[0]!.categories).toEqual([CASINOS, BEER]);
    expect((await n.call<Advertiser>('POST', '/advertisers', { name: 'Plain' })).body.categories).toEqual([]);

    const unknown = expectProblem(await n.call('POST', '/advertisers', { name: 'X', categories: [BEER, '9999'] }), 400, 'bad-request');
    expect(unknown.detail).toMatch(/categories: '9999' is not an ad category/);
    expect(unknown.errors).toEqual([{ path: 'categories', message: "Unknown ad category: '9999'." }]);
    const tooMany = Array.from({ length: 11 }, (_, i) => String(1003 + i));
    expect(expectProblem(await n.call('POST', '/advertisers', { name: 'X', categories: tooMany }), 400, 'bad-request').errors![0]!.path).toBe(
      'categories',
    );
    expectProblem(await n.call('POST', '/advertisers', { name: 'X', categories: 1361 }), 400, 'bad-request');

    // PATCH replaces the list, optimistically locked; [] clears it.
    const patched = await n.call<Advertiser>('PATCH', `/advertisers/${made.body.id}`, { categories: [WINE] }, { 'if-match': '"1"' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ categories: [WINE], version: 2 });
    expectProblem(await n.call('PATCH', `/advertisers/${made.body.id}`, { categories: [] }, { 'if-match': '"1"' }), 409, 'conflict');
    expectProblem(await n.call('PATCH', `/advertisers/${made.body.id}`, { categories: ['nope'] }), 400, 'bad-request');
    expect((await n.call<Advertiser>('PATCH', `/advertisers/${made.body.id}`, { categories: [], version: 2 })).body.categories).toEqual([]);
  });

  it('podcasts take excluded categories and blocked advertisers of their own network; anything else is a 400 naming the field', async () => {
    const n = await network();
    const other = await network();
    const mine = await n.advertiser([BEER]);
    const theirs = await other.advertiser([BEER]);
    const made = await n.call<Podcast>('POST', '/podcasts', {
      name: 'Night Owls',
      host_name: 'Sam',
      excluded_categories: [GAMBLING, GAMBLING, ALCOHOL],
      blocked_advertiser_ids: [mine.id, mine.id],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ excluded_categories: [GAMBLING, ALCOHOL], blocked_advertiser_ids: [mine.id] });
    expect((await n.read<Podcast>(`/podcasts/${made.body.id}`)).body).toMatchObject({ excluded_categories: [GAMBLING, ALCOHOL] });
    expect((await n.call<Podcast>('POST', '/podcasts', { name: 'Plain', host_name: 'Jo' })).body).toMatchObject({
      excluded_categories: [],
      blocked_advertiser_ids: [],
    });

    const foreign = expectProblem(
      await n.call('PATCH', `/podcasts/${made.body.id}`, { blocked_advertiser_ids: [mine.id, theirs.id] }),
      400,
      'bad-request',
    );
    expect(foreign.errors).toEqual([{ path: 'blocked_advertiser_ids', message: `No advertiser of this network: '${theirs.id}'.` }]);
    expect(expectProblem(await n.call('PATCH', `/podcasts/${made.body.id}`, { excluded_categories: ['0'] }), 400, 'bad-request').errors).toEqual([
      { path: 'excluded_categories', message: "Unknown ad category: '0'." },
    ]);
    const patched = await n.call<Podcast>('PATCH', `/podcasts/${made.body.id}`, { excluded_categories: [], version: 1 });
    expect(patched.body).toMatchObject({ excluded_categories: [], blocked_advertiser_ids: [mine.id], version: 2 });
    expectProblem(await n.call('PATCH', `/podcasts/${made.body.id}`, { blocked_advertiser_ids: [], version: 1 }), 409, 'conflict');
    // A blocked advertiser that is deleted stays a valid entry: the list read back can be sent again.
    await n.call('DELETE', `/advertisers/${mine.id}`);
    expect((await n.call('PATCH', `/podcasts/${made.body.id}`, { blocked_advertiser_ids: [mine.id] })).status).toBe(200);
  });

  it('campaigns ask for competitive separation or not (false by default), on create and PATCH', async () => {
    const n = await network();
    const adv = await n.advertiser([BEER]);
    expect((await n.campaign(adv.id)).competitive_separation).toBe(false);
    const asking = await n.campaign(adv.id, { competitive_separation: true });
    expect(asking.competitive_separation).toBe(true);
    expect((await n.read<Campaign>(`/campaigns/${asking.id}`)).body.competitive_separation).toBe(true);
    const patched = await n.call<Campaign>('PATCH', `/campaigns/${asking.id}`, { competitive_separation: false }, { 'if-match': '"1"' });
    expect(patched.body).toMatchObject({ competitive_separation: false, version: 2 });
    expectProblem(await n.call('PATCH', `/campaigns/${asking.id}`, { competitive_separation: 'yes' }), 400, 'bad-request');
  });
});

describe('making and accepting an offer (409 brand-safety)', () => {
  it('refuses an offer to a podcast that excludes the advertiser’s category or one above it, naming the rule; nothing is made', async () => {
    const n = await network();
    const casino = await n.campaign((await n.advertiser([CASINOS], 'Lucky Star')).id);
    const pod = await n.podcast({ excluded_categories: [GAMBLING] });
    const refused = expectProblem(await n.offer(casino.id, pod.id), 409, 'brand-safety');
    expect(refused.title).toBe('Brand safety');
    expect(refused.detail).toBe("The podcast 'Night Owls' excludes the category 'Gambling' (1361), which covers the advertiser's 'Casinos' (1362).");
    const same = await n.campaign((await n.advertiser([GAMBLING])).id);
    expect(expectProblem(await n.offer(same.id, pod.id), 409, 'brand-safety').detail).toMatch(
      /'Gambling' \(1361\), one of the advertiser's categories/,
    );
    // A broader advertiser is not covered by a narrower exclusion; an advertiser of no category by none.
    const beerOnly = await n.podcast({ excluded_categories: [BEER] });
    expect((await n.offer((await n.campaign((await n.advertiser([ALCOHOL])).id)).id, beerOnly.id)).status).toBe(201);
    expect((await n.offer((await n.campaign((await n.advertiser([])).id)).id, pod.id)).status).toBe(201);
    expect((await n.read<Page<Offer>>(`/offers?campaign_id=${casino.id}`)).body.items).toEqual([]);
  });

  it('refuses an offer to a podcast that blocks the advertiser', async () => {
    const n = await network();
    const adv = await n.advertiser([], 'Acme');
    const pod = await n.podcast({ blocked_advertiser_ids: [adv.id] });
    const refused = expectProblem(await n.offer((await n.campaign(adv.id)).id, pod.id), 409, 'brand-safety');
    expect(refused.detail).toBe(`The podcast 'Night Owls' blocks the advertiser 'Acme' (${adv.id}).`);
    expect((await n.offer((await n.campaign((await n.advertiser([])).id)).id, pod.id)).status).toBe(201);
  });

  it('refuses each podcast of a bulk offer on a flight by its own rules, the others made (the bulk POST makes each offer as the single one does)', async () => {
    const n = await network();
    const cmp = await n.campaign((await n.advertiser([CASINOS], 'Lucky Star')).id);
    const flight = await flightRow(n.id, cmp, { startsAt: new Date('2027-12-01T00:00:00Z'), endsAt: new Date('2027-12-31T00:00:00Z') });
    const dry = await n.podcast({ name: 'Dry', excluded_categories: [GAMBLING] });
    const free = await n.podcast({ name: 'Free' });
    const res = await n.call<{ items: Array<{ podcast_id: string; status: number; error?: { type: string; detail: string } }> }>(
      'POST',
      `/flights/${flight.id}/offers`,
      { podcast_ids: [dry.id, free.id] },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i) => [i.podcast_id, i.status])).toEqual([
      [dry.id, 409],
      [free.id, 201],
    ]);
    expect(res.body.items[0]!.error!.type).toMatch(/\/errors\/brand-safety$/);
    expect(res.body.items[0]!.error!.detail).toMatch(/'Gambling' \(1361\), which covers the advertiser's 'Casinos'/);
  });

  it('checks again at accept: an exclusion or a block added after the offer was made refuses the accept, which leaves the offer open', async () => {
    const n = await network();
    const adv = await n.advertiser([BEER]);
    const cmp = await n.campaign(adv.id);
    const pod = await n.podcast();
    const offer = await n.madeOffer(cmp.id, pod.id);
    expect((await n.call('PATCH', `/podcasts/${pod.id}`, { excluded_categories: [ALCOHOL] })).status).toBe(200);
    expect(expectProblem(await n.accept(offer.id), 409, 'brand-safety').detail).toMatch(
      /excludes the category 'Alcohol' \(1002\), which covers the advertiser's 'Beer'/,
    );
    expect((await n.read<Offer>(`/offers/${offer.id}`)).body.status).toBe('open');
    expect((await n.call('PATCH', `/podcasts/${pod.id}`, { excluded_categories: [], blocked_advertiser_ids: [adv.id] })).status).toBe(200);
    expect(expectProblem(await n.accept(offer.id), 409, 'brand-safety').detail).toMatch(/blocks the advertiser/);
    // The advertiser's categories count as they are at accept, too.
    expect((await n.call('PATCH', `/podcasts/${pod.id}`, { blocked_advertiser_ids: [], excluded_categories: [WINE] })).status).toBe(200);
    expect((await n.call('PATCH', `/advertisers/${adv.id}`, { categories: [WINE] })).status).toBe(200);
    expectProblem(await n.accept(offer.id), 409, 'brand-safety');
    expect((await n.call('PATCH', `/advertisers/${adv.id}`, { categories: [BEER] })).status).toBe(200);
    expect((await n.accept(offer.id)).status).toBe(200);
  });
});

describe('competitive separation, at accept', () => {
  const DEC = (d: number) => `2027-12-${String(d).padStart(2, '0')}T00:00:00.000Z`;

  /** A podcast, and two competitors' campaigns (Beer, and Alcohol above it) offered to it. */
  async function competitors(first: Record<string, unknown>, second: Record<string, unknown>, categories = [BEER, ALCOHOL]) {
    const n = await network();
    const pod = await n.podcast();
    const a = await n.campaign((await n.advertiser([categories[0]!], 'Hoppy Co')).id, { name: 'Hoppy December', ...first });
    const b = await n.campaign((await n.advertiser([categories[1]!], 'Spirited Ltd')).id, { name: 'Spirited December', ...second });
    return { n, pod, a, b, offerA: await n.madeOffer(a.id, pod.id), offerB: await n.madeOffer(b.id, pod.id) };
  }

  it('refuses the second of two competitors in overlapping dates when either campaign asks, naming the other campaign', async () => {
    const asksFirst = await competitors(
      { competitive_separation: true, starts_at: DEC(1), ends_at: DEC(15) },
      { starts_at: DEC(10), ends_at: DEC(20) },
    );
    expect((await asksFirst.n.accept(asksFirst.offerA.id)).status).toBe(200);
    const refused = expectProblem(await asksFirst.n.accept(asksFirst.offerB.id), 409, 'brand-safety');
    expect(refused.detail).toBe(
      `The podcast 'Night Owls' already carries the campaign 'Hoppy December' (${asksFirst.a.id}) of 'Hoppy Co' from 2027-12-01T00:00:00.000Z until 2027-12-15T00:00:00.000Z, ` +
        "overlapping these dates, and the advertisers compete in 'Alcohol' (1002), which covers their 'Beer' (1004); that campaign asks for competitive separation.",
    );
    expect((await asksFirst.n.read<Offer>(`/offers/${asksFirst.offerB.id}`)).body.status).toBe('open');

    const asksSecond = await competitors({ starts_at: DEC(1), ends_at: DEC(15) }, { competitive_separation: true });
    expect((await asksSecond.n.accept(asksSecond.offerA.id)).status).toBe(200);
    expect(expectProblem(await asksSecond.n.accept(asksSecond.offerB.id), 409, 'brand-safety').detail).toMatch(/this campaign asks/);
  });

  it('accepts both when neither asks, when the dates do not overlap, when the categories are only siblings, or once the rival is rejected', async () => {
    const neither = await competitors({}, {});
    expect((await neither.n.accept(neither.offerA.id)).status).toBe(200);
    expect((await neither.n.accept(neither.offerB.id)).status).toBe(200);

    const backToBack = await competitors(
      { competitive_separation: true, starts_at: DEC(1), ends_at: DEC(15) },
      { starts_at: DEC(15), ends_at: DEC(31) },
    );
    expect((await backToBack.n.accept(backToBack.offerA.id)).status).toBe(200);
    expect((await backToBack.n.accept(backToBack.offerB.id)).status).toBe(200);

    const siblings = await competitors({ competitive_separation: true }, { competitive_separation: true }, [BEER, WINE]);
    expect((await siblings.n.accept(siblings.offerA.id)).status).toBe(200);
    expect((await siblings.n.accept(siblings.offerB.id)).status).toBe(200);

    const rejected = await competitors({ competitive_separation: true }, {});
    expect((await rejected.n.call('POST', `/offers/${rejected.offerA.id}/reject`)).status).toBe(200);
    expect((await rejected.n.accept(rejected.offerB.id)).status).toBe(200);
  });

  it('weighs an offer’s terms (its flight’s dates) over its campaign’s, and an open-ended campaign as running always', async () => {
    const n = await network();
    const pod = await n.podcast();
    const a = await n.campaign((await n.advertiser([BEER])).id, { competitive_separation: true });
    const b = await n.campaign((await n.advertiser([BEER])).id);
    // Offers carrying terms (as an offer made on a flight does), made as fixtures: early and late December.
    const terms = (from: number, to: number): OfferTerms => ({
      placement: 'pre',
      starts_at: DEC(from),
      ends_at: DEC(to),
      max_duration_seconds: 60,
      pricing: { model: 'flat', amount_cents: 100, currency: 'USD' },
      impression_goal: null,
    });
    const early = await offerRow(n.id, { campaign: a, podcast: pod }, { terms: terms(1, 10) });
    const late = await offerRow(n.id, { campaign: b, podcast: pod }, { terms: terms(10, 20) });
    expect((await n.accept(early.id)).status).toBe(200);
    expect((await n.accept(late.id)).status).toBe(200);
    const overlapping = await offerRow(n.id, { campaign: b, podcast: pod }, { terms: terms(5, 12) });
    expectProblem(await n.accept(overlapping.id), 409, 'brand-safety');
    // Without terms, campaign b has no dates: it runs always, and overlaps the early offer.
    const always = await n.madeOffer(b.id, pod.id);
    expect(expectProblem(await n.accept(always.id), 409, 'brand-safety').detail).toMatch(
      /from 2027-12-01T00:00:00.000Z until 2027-12-10T00:00:00.000Z/,
    );
  });

  it('two accepts racing for one podcast that would break separation: in every round exactly one wins and the other is a 409 brand-safety', async () => {
    const ROUNDS = 10;
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { n, pod, offerA, offerB } = await competitors({ competitive_separation: true }, { competitive_separation: true });
      const answers = await Promise.all([n.accept(offerA.id), n.accept(offerB.id)]);
      const statuses = answers.map((r) => r.status).sort();
      outcomes.push(statuses.join('+'));
      expect(statuses, `round ${round}: ${answers.map((r) => r.text).join(' | ')}`).toEqual([200, 409]);
      expect((answers.find((r) => r.status === 409)!.body as unknown as { type: string }).type).toMatch(/\/errors\/brand-safety$/);
      const accepted = await database()
        .select({ id: offers.id })
        .from(offers)
        .where(and(eq(offers.networkId, n.id), eq(offers.podcastId, pod.id), eq(offers.status, 'accepted')));
      expect(accepted).toHaveLength(1);
    }
    expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => '200+409'));
  });
});

describe('GET …/flights/{flightId}/eligible-podcasts', () => {
  it('lists every opted-in podcast with eligible and the reasons it is not, to a read_only key, paged by id', async () => {
    const n = await network();
    const adv = await n.advertiser([BEER], 'Hoppy Co');
    const cmp = await n.campaign(adv.id, { competitive_separation: true });
    const flight = await flightRow(n.id, cmp, { startsAt: new Date('2027-12-01T00:00:00Z'), endsAt: new Date('2027-12-31T00:00:00Z') });
    const free = await n.podcast({ name: 'Free' });
    const excludes = await n.podcast({ name: 'Dry', excluded_categories: [ALCOHOL] });
    const blocks = await n.podcast({ name: 'Blocks', blocked_advertiser_ids: [adv.id] });
    const taken = await n.podcast({ name: 'Taken' });
    const rival = await n.campaign((await n.advertiser([ALCOHOL], 'Spirited Ltd')).id, { name: 'Rival', starts_at: '2027-12-20T00:00:00Z' });
    expect((await n.accept((await n.madeOffer(rival.id, taken.id)).id)).status).toBe(200);
    const later = await n.podcast({ name: 'Later' });
    const laterRival = await n.campaign((await n.advertiser([BEER])).id, { starts_at: '2028-01-01T00:00:00Z' });
    expect((await n.accept((await n.madeOffer(laterRival.id, later.id)).id)).status).toBe(200);
    const notOptedIn = await n.call<Podcast>('POST', '/podcasts', { name: 'Not yet', host_name: 'Al', excluded_categories: [ALCOHOL] });

    const path = `/flights/${flight.id}/eligible-podcasts`;
    const all = await n.read<Page<Eligibility>>(path);
    expect(all.status, all.text).toBe(200);
    const byName = Object.fromEntries(all.body.items.map((e) => [e.podcast.name, e]));
    expect(Object.keys(byName)).toEqual(['Free', 'Dry', 'Blocks', 'Taken', 'Later']);
    expect(all.body.items.map((e) => e.podcast.id)).not.toContain(notOptedIn.body.id);
    expect(byName.Free).toMatchObject({ eligible: true, reasons: [], podcast: { id: free.id } });
    expect(byName.Later).toMatchObject({ eligible: true, reasons: [] });
    expect(byName.Dry).toMatchObject({
      eligible: false,
      reasons: [{ rule: 'excluded_category', detail: expect.stringMatching(/'Alcohol' \(1002\)/) }],
    });
    expect(byName.Blocks).toMatchObject({ eligible: false, reasons: [{ rule: 'blocked_advertiser', detail: expect.stringMatching(/Hoppy Co/) }] });
    expect(byName.Taken!.eligible).toBe(false);
    expect(byName.Taken!.reasons).toEqual([{ rule: 'competitive_separation', detail: expect.stringContaining(`'Rival' (${rival.id})`) }]);
    expect([excludes.id, blocks.id, taken.id].every((id) => all.body.items.some((e) => e.podcast.id === id))).toBe(true);

    const first = await n.read<Page<Eligibility>>(`${path}?limit=2`);
    const second = await n.read<Page<Eligibility>>(`${path}?limit=2&cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expect([...first.body.items, ...second.body.items].map((e) => e.podcast.name)).toEqual(['Free', 'Dry', 'Blocks', 'Taken']);
    expectProblem(await n.read(`/flights/flt_00000000000000000000000000/eligible-podcasts`), 404, 'not-found');
  });
});
