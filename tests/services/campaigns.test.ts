import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { advertisers, campaigns } from '@/db/schema';
import { findAdvertiser } from '@/server/services/advertisers/find-advertisers';
import { deleteAdvertiser } from '@/server/services/advertisers/delete-advertiser';
import { createCampaign, type CreateCampaignInput } from '@/server/services/campaigns/create-campaign';
import { adInventory, createNetworkRow, useTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The rules of creating a campaign, on the service itself; tests/http/campaigns.test.ts proves
// them through /v1.

useTestDatabase();

const terms = { startsAt: null, endsAt: null, budgetCents: null, currency: null };

function create(input: Omit<CreateCampaignInput, 'name' | 'script' | 'status' | keyof typeof terms> & Partial<CreateCampaignInput>) {
  return database().transaction((tx) => createCampaign({ tx, name: 'Summer', script: 'Hello.', status: 'draft', ...terms, ...input }));
}

describe('createCampaign', () => {
  it('creates a campaign for a live advertiser of the network, at version 1', async () => {
    const network = await createNetworkRow();
    const { advertiser } = await adInventory(network.id);
    const row = await create({ networkId: network.id, advertiserId: advertiser.id, status: 'active', budgetCents: 5000, currency: 'USD' });
    expect(row).toMatchObject({ networkId: network.id, advertiserId: advertiser.id, status: 'active', version: 1, budgetCents: 5000 });
    expect(row.id).toMatch(/^cmp_/);
  });

  it('returns the row exactly as Drizzle reads it back (tableStatement: property names, Dates, numbers, nulls)', async () => {
    const network = await createNetworkRow();
    const { advertiser } = await adInventory(network.id);
    const startsAt = new Date('2026-12-01T10:00:00.123Z');
    const endsAt = new Date('2027-01-01T00:00:00.000Z');
    const row = await create({ networkId: network.id, advertiserId: advertiser.id, startsAt, endsAt, budgetCents: 123_456_789_012, currency: 'EUR' });
    const [readBack] = await database().select().from(campaigns).where(eq(campaigns.id, row.id));
    expect(row).toEqual(readBack);
    expect(row.startsAt).toEqual(startsAt);
    expect(row.budgetCents).toBe(123_456_789_012);
    const bare = await create({ networkId: network.id, advertiserId: advertiser.id });
    expect(bare).toMatchObject({ startsAt: null, endsAt: null, budgetCents: null, currency: null });
    expect(bare.createdAt).toBeInstanceOf(Date);
    const [advertiserRead] = await database().select().from(advertisers).where(eq(advertisers.id, advertiser.id));
    expect(await findAdvertiser({ db: database(), networkId: network.id, advertiserId: advertiser.id })).toEqual(advertiserRead);
  });

  it('refuses an advertiser that is unknown, of another network or deleted: 400 naming advertiser_id, and nothing is written', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const { advertiser: foreign } = await adInventory(other.id);
    const { advertiser: gone } = await adInventory(network.id, { campaignStatus: 'archived' });
    await database().transaction((tx) => deleteAdvertiser({ tx, networkId: network.id, advertiserId: gone.id, expectedVersion: undefined }));
    for (const advertiserId of ['adv_unknown', foreign.id, gone.id]) {
      const error = await refusal(create({ networkId: network.id, advertiserId }));
      expect(error.kind).toBe('bad-request');
      expect(error.extra.errors?.map((e) => e.path)).toEqual(['advertiser_id']);
    }
    expect(await database().select().from(campaigns).where(eq(campaigns.networkId, network.id))).toHaveLength(1); // adInventory's own
  });

  it('refuses terms that do not hold together: ends_at not after starts_at, a budget without currency', async () => {
    const network = await createNetworkRow();
    const { advertiser } = await adInventory(network.id);
    const at = new Date('2027-01-01T00:00:00Z');
    const backwards = await refusal(create({ networkId: network.id, advertiserId: advertiser.id, startsAt: at, endsAt: at }));
    expect(backwards.extra.errors?.map((e) => e.path)).toEqual(['ends_at']);
    const budget = await refusal(create({ networkId: network.id, advertiserId: advertiser.id, budgetCents: 100 }));
    expect(budget.extra.errors?.map((e) => e.path)).toEqual(['currency']);
  });

  it('and a delete of its advertiser at the same moment: never a campaign of a deleted advertiser', async () => {
    const network = await createNetworkRow();
    const { advertiser } = await adInventory(network.id, { campaignStatus: 'archived' });
    const [created, deleted] = await Promise.allSettled([
      create({ networkId: network.id, advertiserId: advertiser.id }),
      database().transaction((tx) => deleteAdvertiser({ tx, networkId: network.id, advertiserId: advertiser.id, expectedVersion: undefined })),
    ]);
    // Either the campaign came first (and the delete refuses: a live campaign), or the delete did (and the campaign is refused).
    expect([created.status, deleted.status].sort()).toEqual(['fulfilled', 'rejected']);
  });
});
