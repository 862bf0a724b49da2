import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { creatives, events, offers } from '@/db/schema';
import { updateAdvertiser } from '@/server/services/advertisers/update-advertiser';
import { updateCampaign } from '@/server/services/campaigns/update-campaign';
import { createOffer } from '@/server/services/offers/create-offer';
import { acceptOffer } from '@/server/services/offers/decide-offer';
import { updatePodcast } from '@/server/services/podcasts/update-podcast';
import { adInventory, createNetworkRow, offerRow, useTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The brand-safety check on the services that call it (createOffer, acceptOffer), each on a
// transaction of the test's own: the refusal's kind, what was (not) written, and the locks that make
// the rules hold at commit. tests/http/brand-safety.test.ts proves the same through /v1.

useTestDatabase();

type Tx = Parameters<Parameters<ReturnType<typeof database>['transaction']>[0]>[0];
const run = <T>(work: (tx: Tx) => Promise<T>) => database().transaction(work);

/** Inventory whose advertiser sells `categories` (the podcast opted in), in a new network or `networkId`. */
async function inventory(categories: string[], networkId?: string) {
  const network = networkId ?? (await createNetworkRow()).id;
  const made = await adInventory(network);
  const advertiser = await run((tx) =>
    updateAdvertiser({ tx, networkId: network, advertiserId: made.advertiser.id, changes: { categories }, expectedVersion: undefined }),
  );
  return { networkId: network, ...made, advertiser };
}

/** A statement on another connection that must wait for a lock: it fails with lock_not_available after 300 ms. */
async function waitsForLock(work: (tx: Tx) => Promise<unknown>): Promise<boolean> {
  try {
    await database().transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '300ms'`);
      await work(tx);
    });
    return false;
  } catch (error) {
    for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) if ((e as { code?: string }).code === '55P03') return true;
    throw error;
  }
}

describe('brand safety in createOffer and acceptOffer', () => {
  it('createOffer refuses an excluded category (through its parent) with brand-safety and writes no offer', async () => {
    const s = await inventory(['1362']);
    await run((tx) =>
      updatePodcast({ tx, networkId: s.networkId, podcastId: s.podcast.id, changes: { excludedCategories: ['1361'] }, expectedVersion: undefined }),
    );
    const error = await refusal(run((tx) => createOffer({ tx, networkId: s.networkId, campaignId: s.campaign.id, podcastId: s.podcast.id })));
    expect(error.kind).toBe('brand-safety');
    expect(error.detail).toMatch(/'Gambling' \(1361\), which covers the advertiser's 'Casinos' \(1362\)/);
    expect(await database().select().from(offers).where(eq(offers.networkId, s.networkId))).toEqual([]);
  });

  it('acceptOffer refuses a competitor held in overlapping dates and leaves the offer open, with no creative, event or job', async () => {
    const held = await inventory(['1004']);
    const rival = await inventory(['1002'], held.networkId);
    await run((tx) =>
      updateCampaign({
        tx,
        networkId: held.networkId,
        campaignId: held.campaign.id,
        changes: { competitiveSeparation: true },
        expectedVersion: undefined,
      }),
    );
    const first = await offerRow(held.networkId, { campaign: held.campaign, podcast: held.podcast });
    const second = await offerRow(held.networkId, { campaign: rival.campaign, podcast: held.podcast });
    await run((tx) => acceptOffer({ tx, networkId: held.networkId, offerId: first.id }));
    const error = await refusal(run((tx) => acceptOffer({ tx, networkId: held.networkId, offerId: second.id })));
    expect(error.kind).toBe('brand-safety');
    expect(error.detail).toContain(`(${held.campaign.id})`);
    const [row] = await database().select().from(offers).where(eq(offers.id, second.id));
    expect(row).toMatchObject({ status: 'open', creativeId: null, version: second.version });
    expect(await database().select().from(creatives).where(eq(creatives.offerId, second.id))).toEqual([]);
    const recorded = await database()
      .select()
      .from(events)
      .where(and(eq(events.networkId, held.networkId), sql`${events.data}->>'offer_id' = ${second.id}`));
    expect(recorded).toEqual([]);
  });

  it('holds the rules at commit: while an accept is open, changes to the podcast, the advertisers and the campaigns it read wait for it', async () => {
    const held = await inventory(['1004']);
    const rival = await inventory(['1007'], held.networkId);
    const accepted = await offerRow(held.networkId, { campaign: held.campaign, podcast: rival.podcast });
    await run((tx) => acceptOffer({ tx, networkId: held.networkId, offerId: accepted.id }));
    const open = await offerRow(held.networkId, { campaign: rival.campaign, podcast: rival.podcast });
    const another = await offerRow(held.networkId, { campaign: held.campaign, podcast: rival.podcast });
    const n = held.networkId;
    const waited = await database().transaction(async (tx) => {
      await acceptOffer({ tx, networkId: n, offerId: open.id });
      return {
        podcast: await waitsForLock((t) =>
          updatePodcast({ tx: t, networkId: n, podcastId: rival.podcast.id, changes: { excludedCategories: ['1002'] }, expectedVersion: undefined }),
        ),
        ownAdvertiser: await waitsForLock((t) =>
          updateAdvertiser({ tx: t, networkId: n, advertiserId: rival.advertiser.id, changes: { categories: ['1004'] }, expectedVersion: undefined }),
        ),
        heldAdvertiser: await waitsForLock((t) =>
          updateAdvertiser({ tx: t, networkId: n, advertiserId: held.advertiser.id, changes: { categories: ['1007'] }, expectedVersion: undefined }),
        ),
        heldCampaign: await waitsForLock((t) =>
          updateCampaign({ tx: t, networkId: n, campaignId: held.campaign.id, changes: { competitiveSeparation: true }, expectedVersion: undefined }),
        ),
        anotherAccept: await waitsForLock((t) => acceptOffer({ tx: t, networkId: n, offerId: another.id })),
      };
    });
    expect(waited).toEqual({ podcast: true, ownAdvertiser: true, heldAdvertiser: true, heldCampaign: true, anotherAccept: true });
  });
});
