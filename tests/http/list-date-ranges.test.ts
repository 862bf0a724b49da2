import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { campaigns } from '@/db/schema';
import { api } from '@/tests/support/api';
import { adInventory, createNetworkRow, creativeRow, offerRow, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

const DAYS = ['2026-01-10T12:00:00.000Z', '2026-02-10T12:00:00.000Z', '2026-03-10T12:00:00.000Z'];

/** Three of each, made on three days: offers, creatives and campaigns of one network. */
async function madeOnThreeDays() {
  const network = await createNetworkRow();
  const made: Record<'offers' | 'creatives' | 'campaigns', string[]> = { offers: [], creatives: [], campaigns: [] };
  for (const day of DAYS) {
    const { campaign, podcast } = await adInventory(network.id);
    const createdAt = new Date(day);
    await database().update(campaigns).set({ createdAt }).where(eq(campaigns.id, campaign.id));
    const offer = await offerRow(network.id, { campaign, podcast }, { createdAt });
    const creative = await creativeRow(network.id, offer, { createdAt });
    made.campaigns.push(campaign.id);
    made.offers.push(offer.id);
    made.creatives.push(creative.id);
  }
  return { networkId: network.id, made };
}

describe('lists with dates take since/until (creation time, inclusive)', () => {
  it('offers, creatives and campaigns: a window, its ends, and the cursor bound to it', async () => {
    const { networkId, made } = await madeOnThreeDays();
    for (const list of ['offers', 'creatives', 'campaigns'] as const) {
      const ids = async (query: string) => {
        const res = await api<{ items: Array<{ id: string }>; next_cursor: string | null }>('GET', `/networks/${networkId}/${list}?${query}`);
        expect(res.status, `${list}?${query}: ${JSON.stringify(res.body)}`).toBe(200);
        return res.body.items.map((row) => row.id);
      };
      expect(await ids(`since=2026-02-01T00:00:00Z&until=2026-02-28T23:59:59Z`), list).toEqual([made[list][1]]);
      expect(await ids(`since=${DAYS[1]}`), list).toEqual(made[list].slice(1)); // inclusive
      expect(await ids(`until=${DAYS[1]}`), list).toEqual(made[list].slice(0, 2));
      expect(await ids(''), list).toEqual(made[list]);
      // A cursor from a window is not a cursor of another.
      const page = await api<{ next_cursor: string }>('GET', `/networks/${networkId}/${list}?since=${DAYS[0]}&limit=1`);
      const other = await api('GET', `/networks/${networkId}/${list}?since=${DAYS[1]}&cursor=${encodeURIComponent(page.body.next_cursor)}`);
      expect(other.status, list).toBe(400);
      const backwards = await api('GET', `/networks/${networkId}/${list}?since=2026-03-01T00:00:00Z&until=2026-01-01T00:00:00Z`);
      expect(backwards.status, list).toBe(400);
      expect((await api('GET', `/networks/${networkId}/${list}?since=last%20week`)).status, list).toBe(400);
    }
  });
});
