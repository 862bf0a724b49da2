import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { campaigns } from '@/db/schema';
import { deleteAdvertiser } from '@/server/services/advertisers/delete-advertiser';
import { createCampaign, type CreateCampaignInput } from '@/server/services/campaigns/create-campaign';
import { adInventory, closeTestDatabase, createNetworkRow, openTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The rules of creating a campaign, on the service itself; tests/http/campaigns.test.ts proves
// them through /v1.

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

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
