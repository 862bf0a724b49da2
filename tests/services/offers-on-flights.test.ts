import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database, type Tx } from '@/db/client';
import { campaigns, flights, offers } from '@/db/schema';
import { updateCampaign } from '@/server/services/campaigns/update-campaign';
import { createFlight } from '@/server/services/flights/create-flight';
import { deleteFlight } from '@/server/services/flights/delete-flight';
import { updateFlight } from '@/server/services/flights/update-flight';
import { createOffer } from '@/server/services/offers/create-offer';
import { acceptOffer } from '@/server/services/offers/decide-offer';
import { adInventory, createNetworkRow, flightRow, useTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The locks behind the flight's side of an accepted offer's contract, one interleaving at a time:
// one transaction is held open at a chosen point while the other runs, so each order is made to
// happen rather than hoped for (tests/http/offers-on-flights.test.ts races them over /v1).

useTestDatabase();

const DAY = 86_400_000;

async function openOfferOnFlight() {
  const network = await createNetworkRow();
  const { campaign, podcast } = await adInventory(network.id);
  const flight = await flightRow(network.id, campaign, { startsAt: new Date(Date.now() + DAY), endsAt: new Date(Date.now() + 8 * DAY) });
  const offer = await database().transaction((tx) => createOffer({ tx, networkId: network.id, flightId: flight.id, podcastId: podcast.id }));
  return { networkId: network.id, campaign, podcast, flight, offer };
}

/** `work` in a transaction that stays open, its locks held, until `commit()`; `ran` resolves once `work` has. */
function heldOpen<T>(work: (tx: Tx) => Promise<T>) {
  let commit!: () => void;
  const gate = new Promise<void>((resolve) => (commit = resolve));
  let ran!: (value: T) => void;
  const done = new Promise<T>((resolve) => (ran = resolve));
  const committed = database().transaction(async (tx) => {
    const value = await work(tx);
    ran(value);
    await gate;
    return value;
  });
  committed.catch(() => undefined);
  return { ran: done, commit, committed };
}

/** Whether `promise` is still waiting after `ms` (on a lock, here). */
async function stillWaiting(promise: Promise<unknown>, ms = 300): Promise<boolean> {
  const waiting = Symbol('waiting');
  const first = await Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((resolve) => setTimeout(() => resolve(waiting), ms)),
  ]);
  return first === waiting;
}

const newPrice = { amountCents: 99_000 };

describe('an accept and a change of its flight, in either order', () => {
  it('a PATCH of the terms waits for an accept in progress, then sees the accepted offer (409) and changes nothing', async () => {
    const { networkId, flight, offer } = await openOfferOnFlight();
    const accepting = heldOpen((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    await accepting.ran;
    const patch = database().transaction((tx) => updateFlight({ tx, networkId, flightId: flight.id, changes: newPrice, expectedVersion: undefined }));
    expect(await stillWaiting(patch)).toBe(true);
    accepting.commit();
    await accepting.committed;
    const refused = await refusal(patch);
    expect(refused.kind).toBe('conflict');
    expect(refused.detail).toMatch(/accepted offer/);
    const [row] = await database().select().from(flights).where(eq(flights.id, flight.id));
    expect(row).toMatchObject({ amountCents: flight.amountCents, version: flight.version });
  });

  it('a DELETE waits the same way, then refuses', async () => {
    const { networkId, flight, offer } = await openOfferOnFlight();
    const accepting = heldOpen((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    await accepting.ran;
    const remove = database().transaction((tx) => deleteFlight({ tx, networkId, flightId: flight.id, expectedVersion: undefined }));
    expect(await stillWaiting(remove)).toBe(true);
    accepting.commit();
    await accepting.committed;
    expect((await refusal(remove)).detail).toMatch(/cannot be deleted/);
  });

  it('an accept waits for a PATCH of the terms in progress, then finds the offer expired (409) and makes no creative', async () => {
    const { networkId, flight, offer } = await openOfferOnFlight();
    const patching = heldOpen((tx) => updateFlight({ tx, networkId, flightId: flight.id, changes: newPrice, expectedVersion: undefined }));
    await patching.ran;
    const accept = database().transaction((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    expect(await stillWaiting(accept)).toBe(true);
    patching.commit();
    await patching.committed;
    expect((await refusal(accept)).detail).toMatch(/expired/);
    const [row] = await database().select().from(offers).where(eq(offers.id, offer.id));
    expect(row).toMatchObject({ status: 'expired', creativeId: null, terms: offer.terms });
  });

  it('an accept waits for a DELETE in progress, then says the flight was deleted (409)', async () => {
    const { networkId, flight, offer } = await openOfferOnFlight();
    const deleting = heldOpen((tx) => deleteFlight({ tx, networkId, flightId: flight.id, expectedVersion: undefined }));
    await deleting.ran;
    const accept = database().transaction((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    expect(await stillWaiting(accept)).toBe(true);
    deleting.commit();
    await deleting.committed;
    expect((await refusal(accept)).detail).toMatch(/deleted/);
  });

  it('a PATCH of the name only does not wait on offers, nor expire them', async () => {
    const { networkId, flight, offer } = await openOfferOnFlight();
    const renamed = await database().transaction((tx) =>
      updateFlight({ tx, networkId, flightId: flight.id, changes: { name: 'Renamed' }, expectedVersion: undefined }),
    );
    expect(renamed.name).toBe('Renamed');
    const [row] = await database().select().from(offers).where(eq(offers.id, offer.id));
    expect(row).toMatchObject({ status: 'open', version: offer.version });
  });
});

describe('a campaign’s dates and a flight being written', () => {
  it('a campaign PATCH of its dates waits for a flight being created under it, then sees the flight (409 naming it)', async () => {
    const network = await createNetworkRow();
    const { campaign } = await adInventory(network.id);
    const [startsAt, endsAt] = [new Date(Date.now() + DAY), new Date(Date.now() + 8 * DAY)];
    const creating = heldOpen((tx) =>
      createFlight({
        tx,
        flight: {
          networkId: network.id,
          campaignId: campaign.id,
          name: 'Late',
          startsAt,
          endsAt,
          placement: 'post',
          maxDurationSeconds: 60,
          pricingModel: 'flat',
          amountCents: 100,
          currency: 'USD',
          impressionGoal: null,
          externalOrderId: null,
        },
      }),
    );
    const flight = await creating.ran;
    const patch = database().transaction((tx) =>
      updateCampaign({
        tx,
        networkId: network.id,
        campaignId: campaign.id,
        changes: { endsAt: new Date(Date.now() + 2 * DAY) },
        expectedVersion: undefined,
      }),
    );
    expect(await stillWaiting(patch)).toBe(true);
    creating.commit();
    await creating.committed;
    const refused = await refusal(patch);
    expect(refused.kind).toBe('conflict');
    expect(refused.detail).toContain(flight.id);
    const [row] = await database().select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(row!.endsAt).toBeNull();
  });
});
