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
import { requestVoiceConsentInput } from '@/server/routers/voice-consents/request-voice-consent.types';
import { listVoiceConsents } from '@/server/services/voice-consents/find-voice-consents';
import { currentStatement } from '@/server/services/voice-consents/statement';
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
    voiceConsents: await listVoiceConsents({ ...page, filter: {} }),
    offers: await listOffers({ ...page, filter: {} }),
    creatives: await listCreatives({ ...page, filter: {} }),
    events: await listEvents({ ...page, filter: {} }),
  };
}

const nothing = { advertisers: [], campaigns: [], podcasts: [], voiceConsents: [], offers: [], creatives: [], events: [] };

const tally = (values: string[]) => Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));

describe('fillWithSampleData', () => {
  it('fills the network’s lists with what its summary counts: upcoming campaigns, and shows mostly opted in', async () => {
    const network = await createNetworkRow();
    const summary = await fill(network.id);
    const held = await contents(database(), network.id);
    expect(summary).toEqual({ advertisers: 3, campaigns: 4, podcasts: 5, consents: 3, offers: 8 });
    expect(summary).toEqual({
      advertisers: held.advertisers.length,
      campaigns: held.campaigns.length,
      podcasts: held.podcasts.length,
      consents: held.voiceConsents.length,
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

  it('has most hosts’ voice consent granted, as a host grants it: the statement recorded, each with its event', async () => {
    const network = await createNetworkRow();
    await fill(network.id);
    const held = await contents(database(), network.id);
    const statement = currentStatement();
    expect(held.voiceConsents).toHaveLength(3);
    for (const consent of held.voiceConsents) {
      expect(consent).toMatchObject({ status: 'granted', statementVersion: statement.version, statementSha256: statement.sha256 });
      expect(consent.grantedAt).toBeInstanceOf(Date);
      const podcast = held.podcasts.find((p) => p.id === consent.podcastId)!;
      expect(podcast.optInStatus).toBe('opted_in');
      expect(consent.hostName).toBe(podcast.hostName);
      if (consent.expiresAt) expect(consent.expiresAt.getTime()).toBeGreaterThan(Date.now());
    }
    // Both scopes, one for a year: what a network sees in its consents.
    expect(tally(held.voiceConsents.map((c) => c.scope))).toEqual({ all_campaigns: 2, advertisers: 1 });
    const scoped = held.voiceConsents.find((c) => c.scope === 'advertisers')!;
    for (const id of scoped.advertiserIds) expect(held.advertisers.map((a) => a.id)).toContain(id);
    expect(held.voiceConsents.filter((c) => c.expiresAt)).toHaveLength(1);
    // One opted-in host has not been asked yet.
    const asked = new Set(held.voiceConsents.map((c) => c.podcastId));
    expect(held.podcasts.filter((p) => p.optInStatus === 'opted_in' && !asked.has(p.id))).toHaveLength(1);

    const granted = held.events.filter((e) => e.type === 'voice_consent.granted');
    expect(granted.map((e) => (e.data as { consent_id: string }).consent_id).sort()).toEqual(held.voiceConsents.map((c) => c.id).sort());
    for (const e of granted) expect(e.data).toMatchObject({ statement_version: statement.version, statement_sha256: statement.sha256 });
  });

  it('leaves offers open, accepted and rejected: each accepted one with its creative, made under its host’s consent or awaiting one; the rejected one with its reason; each with its event', async () => {
    const network = await createNetworkRow();
    // Read on the filling transaction: the creative being made is as the fill left it (the shared
    // server's worker synthesizes it once this commits).
    const { held, jobs } = await database().transaction(async (tx) => {
      await fillWithSampleData({ tx, networkId: network.id });
      const [queued] = await tx.execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
             where t.identifier = 'synthesize-creative' and j.payload->>'networkId' = ${network.id}`,
      );
      return { held: await contents(tx, network.id), jobs: queued!.n };
    });
    expect(tally(held.offers.map((o) => o.status))).toEqual({ open: 5, accepted: 2, rejected: 1 });
    for (const open of held.offers.filter((o) => o.status === 'open')) expect(open.expiresAt!.getTime()).toBeGreaterThan(Date.now());

    const accepted = held.offers.filter((o) => o.status === 'accepted');
    for (const offer of accepted) {
      const creative = held.creatives.find((c) => c.offerId === offer.id);
      expect(creative?.id).toBe(offer.creativeId);
      expect(creative?.script).toBe(held.campaigns.find((c) => c.id === offer.campaignId)!.script);
      expect(creative?.voice).toBe(held.podcasts.find((p) => p.id === offer.podcastId)!.voice);
      const event = held.events.find((e) => e.type === 'offer.accepted' && (e.data as { offer_id: string }).offer_id === offer.id);
      expect(event!.data).toMatchObject({ creative_id: creative!.id });
    }
    // Where the host granted their voice the creative is being made under that consent (its job
    // queued); where the host was not asked yet it awaits one, and nothing is synthesized.
    const consentOf = (podcastId: string) => held.voiceConsents.find((c) => c.podcastId === podcastId);
    expect(held.creatives.map((c) => c.status).sort()).toEqual(['awaiting_consent', 'generating']);
    const generating = held.creatives.find((c) => c.status === 'generating')!;
    expect(generating.voiceConsentId).toBe(consentOf(generating.podcastId)!.id);
    const awaiting = held.creatives.find((c) => c.status === 'awaiting_consent')!;
    expect(awaiting.voiceConsentId).toBeNull();
    expect(consentOf(awaiting.podcastId)).toBeUndefined();
    expect(jobs).toBe(1);

    const rejected = held.offers.find((o) => o.status === 'rejected')!;
    expect(rejected.rejectReason).toMatch(/\w/);
    expect(tally(held.events.map((e) => e.type))).toEqual({
      'optin.completed': 4,
      'voice_consent.granted': 3,
      'offer.accepted': 2,
      'offer.rejected': 1,
    });
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
    for (const v of held.voiceConsents) {
      expect(podcasts).toContain(v.podcastId);
      for (const a of v.advertiserIds) expect(advertisers).toContain(a);
    }
    for (const o of held.offers) {
      expect(campaigns).toContain(o.campaignId);
      expect(podcasts).toContain(o.podcastId);
    }
    const consents = ids(held.voiceConsents);
    for (const c of held.creatives) {
      expect(offers).toContain(c.offerId);
      if (c.voiceConsentId) expect(consents).toContain(c.voiceConsentId);
    }
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
    for (const v of held.voiceConsents)
      requestVoiceConsentInput.parse({
        networkId,
        podcastId: v.podcastId,
        host_name: v.hostName,
        host_email: v.hostEmail,
        scope: v.scope,
        advertiser_ids: v.scope === 'advertisers' ? v.advertiserIds : undefined,
        expires_at: v.expiresAt?.toISOString(),
      });
    for (const o of held.offers) {
      const terms = { price_cents: o.priceCents ?? undefined, currency: o.currency ?? undefined, expires_at: o.expiresAt?.toISOString() };
      createOfferInput.parse({ networkId, campaign_id: o.campaignId, podcast_id: o.podcastId, ...terms });
      if (o.rejectReason) rejectOfferInput.parse({ networkId, offerId: o.id, reason: o.rejectReason });
    }
  });
});
