import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database, type Queryable } from '@/db/client';
import { createAdvertiserInput } from '@/server/routers/advertisers/create-advertiser.types';
import { createCampaignInput } from '@/server/routers/campaigns/create-campaign.types';
import { createOfferInput } from '@/server/routers/offers/create-offer.types';
import { rejectOfferInput } from '@/server/routers/offers/reject-offer.types';
import { createPodcastInput } from '@/server/routers/podcasts/create-podcast.types';
import { listAdvertisers } from '@/server/services/advertisers/find-advertisers';
import { listCampaigns } from '@/server/services/campaigns/find-campaigns';
import { listCreatives } from '@/server/services/creatives/find-creatives';
import { listEvents } from '@/server/services/events/list-events';
import { fillWithSampleData } from '@/server/services/networks/sample-data';
import { listOffers } from '@/server/services/offers/find-offers';
import { listPodcasts } from '@/server/services/podcasts/find-podcasts';
import { createNetworkRow, useTestDatabase } from '@/tests/support/fixtures';

// The sample data a new sandbox network is filled with, on the service itself: what the network's
// lists then hold, that none of it lands elsewhere, and that it is one transaction with the caller's.

useTestDatabase();

const fill = (networkId: string) => database().transaction((tx) => fillWithSampleData({ tx, networkId }));

/** What the network holds, read through the services behind the API's lists. */
async function contents(db: Queryable, networkId: string) {
  const page = { db, networkId, afterId: undefined, take: 100 };
  return {
    advertisers: await listAdvertisers(page),
    campaigns: await listCampaigns({ ...page, filter: {} }),
    podcasts: await listPodcasts(page),
    offers: await listOffers({ ...page, filter: {} }),
    creatives: await listCreatives({ ...page, filter: {} }),
    events: await listEvents({ ...page, filter: {} }),
  };
}

const nothing = { advertisers: [], campaigns: [], podcasts: [], offers: [], creatives: [], events: [] };

const tally = (values: string[]) => Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));

describe('fillWithSampleData', () => {
  it('fills the network’s lists with what its summary counts: upcoming campaigns, and shows mostly opted in', async () => {
    const network = await createNetworkRow();
    const summary = await fill(network.id);
    const held = await contents(database(), network.id);
    expect(summary).toEqual({ advertisers: 3, campaigns: 4, podcasts: 5, offers: 8 });
    expect(summary).toEqual({
      advertisers: held.advertisers.length,
      campaigns: held.campaigns.length,
      podcasts: held.podcasts.length,
      offers: held.offers.length,
    });
    const now = Date.now();
    for (const campaign of held.campaigns) {
      expect(['draft', 'active']).toContain(campaign.status);
      expect(campaign.startsAt!.getTime()).toBeGreaterThan(now);
      expect(campaign.endsAt!.getTime()).toBeGreaterThan(campaign.startsAt!.getTime());
      expect(campaign.script.split(/\s+/).length).toBeGreaterThanOrEqual(40);
    }
    expect(tally(held.podcasts.map((p) => p.optInStatus))).toEqual({ opted_in: 4, not_opted_in: 1 });
    // Brand safety has something to work with: every advertiser is classified, one show excludes a category, one campaign asks for separation.
    for (const advertiser of held.advertisers) expect(advertiser.categories.length).toBeGreaterThan(0);
    expect(held.podcasts.filter((p) => p.excludedCategories.length > 0)).toHaveLength(1);
    expect(held.campaigns.filter((c) => c.competitiveSeparation)).toHaveLength(1);
  });

  it('leaves offers open, accepted and rejected: the accepted one with its creative, the rejected one with its reason, each with its event', async () => {
    const network = await createNetworkRow();
    await fill(network.id);
    const held = await contents(database(), network.id);
    expect(tally(held.offers.map((o) => o.status))).toEqual({ open: 6, accepted: 1, rejected: 1 });
    for (const open of held.offers.filter((o) => o.status === 'open')) expect(open.expiresAt!.getTime()).toBeGreaterThan(Date.now());

    const accepted = held.offers.find((o) => o.status === 'accepted')!;
    const creative = held.creatives.find((c) => c.offerId === accepted.id);
    expect(creative?.id).toBe(accepted.creativeId);
    expect(creative?.script).toBe(held.campaigns.find((c) => c.id === accepted.campaignId)!.script);
    expect(creative?.voice).toBe(held.podcasts.find((p) => p.id === accepted.podcastId)!.voice);
    const rejected = held.offers.find((o) => o.status === 'rejected')!;
    expect(rejected.rejectReason).toMatch(/\w/);

    expect(tally(held.events.map((e) => e.type))).toEqual({ 'optin.completed': 4, 'offer.accepted': 1, 'offer.rejected': 1 });
    expect(held.events.find((e) => e.type === 'offer.accepted')!.data).toMatchObject({ offer_id: accepted.id, creative_id: creative!.id });
    expect(held.events.find((e) => e.type === 'offer.rejected')!.data).toMatchObject({ offer_id: rejected.id, reason: rejected.rejectReason });
  });

  it('writes only into that network: another network stays empty and every reference stays inside the filled one', async () => {
    const filled = await createNetworkRow();
    const other = await createNetworkRow();
    await fill(filled.id);
    expect(await contents(database(), other.id)).toEqual(nothing);

    const held = await contents(database(), filled.id);
    const ids = (rows: Array<{ id: string }>) => new Set(rows.map((r) => r.id));
    const [advertisers, campaigns, podcasts, offers] = [ids(held.advertisers), ids(held.campaigns), ids(held.podcasts), ids(held.offers)];
    for (const c of held.campaigns) expect(advertisers).toContain(c.advertiserId);
    for (const o of held.offers) {
      expect(campaigns).toContain(o.campaignId);
      expect(podcasts).toContain(o.podcastId);
    }
    for (const c of held.creatives) expect(offers).toContain(c.offerId);
  });

  it('runs on the caller’s transaction: when the caller rolls back, nothing of the sample remains, not even the synthesis job', async () => {
    const network = await createNetworkRow();
    const rolledBack = new Error('network creation failed after filling');
    await expect(
      database().transaction(async (tx) => {
        await fillWithSampleData({ tx, networkId: network.id });
        expect((await contents(tx, network.id)).offers).toHaveLength(8);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await contents(database(), network.id)).toEqual(nothing);
    const [jobs] = await database().execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker._private_jobs where payload->>'networkId' = ${network.id}`,
    );
    expect(jobs!.n).toBe(0);
  });

  it('makes only what the API would accept: every sample passes the create endpoints’ input schemas', async () => {
    const network = await createNetworkRow();
    await fill(network.id);
    const held = await contents(database(), network.id);
    const networkId = network.id;
    for (const a of held.advertisers) {
      createAdvertiserInput.parse({
        networkId,
        name: a.name,
        website: a.website ?? undefined,
        contact_email: a.contactEmail ?? undefined,
        categories: a.categories,
      });
    }
    for (const c of held.campaigns) {
      createCampaignInput.parse({
        networkId,
        advertiser_id: c.advertiserId,
        name: c.name,
        script: c.script,
        status: c.status,
        starts_at: c.startsAt?.toISOString(),
        ends_at: c.endsAt?.toISOString(),
        budget_cents: c.budgetCents ?? undefined,
        currency: c.currency ?? undefined,
        competitive_separation: c.competitiveSeparation,
      });
    }
    for (const p of held.podcasts)
      createPodcastInput.parse({
        networkId,
        name: p.name,
        host_name: p.hostName,
        voice: p.voice,
        rss_url: p.rssUrl ?? undefined,
        excluded_categories: p.excludedCategories,
        blocked_advertiser_ids: p.blockedAdvertiserIds,
      });
    for (const o of held.offers) {
      const terms = { price_cents: o.priceCents ?? undefined, currency: o.currency ?? undefined, expires_at: o.expiresAt?.toISOString() };
      createOfferInput.parse({ networkId, campaign_id: o.campaignId, podcast_id: o.podcastId, ...terms });
      if (o.rejectReason) rejectOfferInput.parse({ networkId, offerId: o.id, reason: o.rejectReason });
    }
  });
});
