import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { creatives, events, offers } from '@/db/schema';
import { AppError } from '@/server/errors';
import { acceptOffer } from '@/server/services/offers/decide-offer';
import { adInventory, createNetworkRow, grantedConsentRow, offerRow, useTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The rules of accepting an offer, called on the service itself (no server, no HTTP):
// tests/http/offers.test.ts proves the same operation through /v1.

useTestDatabase();

async function openOffer(options: { expiresAt?: Date; consent?: boolean } = {}) {
  const network = await createNetworkRow();
  const { campaign, podcast } = await adInventory(network.id, { script: 'Sleep better with Acme.', voice: 'deep' });
  const offer = await offerRow(network.id, { campaign, podcast }, { expiresAt: options.expiresAt ?? null });
  // The host's voice consent, granted for every campaign, unless the test is about its absence.
  const consent = options.consent === false ? null : (await grantedConsentRow(network.id, podcast)).consent;
  return { network, campaign, podcast, offer, consent };
}

/** What acceptOffer left behind for this offer: the creative, the event and the synthesis job. */
async function sideEffects(db: Pick<ReturnType<typeof database>, 'select' | 'execute'>, offerId: string) {
  const made = await db.select().from(creatives).where(eq(creatives.offerId, offerId));
  const recorded = await db
    .select()
    .from(events)
    .where(and(eq(events.type, 'offer.accepted'), sql`${events.data}->>'offer_id' = ${offerId}`));
  const jobs = made[0]
    ? await db.execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
             where t.identifier = 'synthesize-creative' and j.payload->>'creativeId' = ${made[0].id}`,
      )
    : [{ n: 0 }];
  return { creatives: made, events: recorded, jobs: jobs[0]!.n };
}

describe('acceptOffer', () => {
  it('accepts, makes the creative with the script and voice of that moment, records offer.accepted and enqueues synthesis — on the caller’s transaction', async () => {
    const { network, campaign, offer, consent } = await openOffer();
    const seen = await database().transaction(async (tx) => {
      const accepted = await acceptOffer({ tx, networkId: network.id, offerId: offer.id });
      expect(accepted).toMatchObject({ status: 'accepted', version: offer.version + 1 });
      expect(accepted.creativeId).toMatch(/^crv_/);
      return sideEffects(tx, offer.id);
    });
    expect(seen.creatives).toHaveLength(1);
    expect(seen.creatives[0]).toMatchObject({
      status: 'generating',
      voiceConsentId: consent!.id,
      script: 'Sleep better with Acme.',
      voice: 'deep',
      campaignId: campaign.id,
    });
    expect(seen.events).toHaveLength(1);
    expect(seen.events[0]!.data).toMatchObject({ offer_id: offer.id, creative_id: seen.creatives[0]!.id });
    expect(seen.jobs).toBe(1);
  });

  it('without the host’s consent, accepts all the same but the creative awaits consent: no synthesis job', async () => {
    const { network, campaign, offer } = await openOffer({ consent: false });
    const accepted = await database().transaction((tx) => acceptOffer({ tx, networkId: network.id, offerId: offer.id }));
    expect(accepted).toMatchObject({ status: 'accepted', version: offer.version + 1 });
    const seen = await sideEffects(database(), offer.id);
    expect(seen.creatives).toHaveLength(1);
    expect(seen.creatives[0]).toMatchObject({ id: accepted.creativeId, status: 'awaiting_consent', voiceConsentId: null, campaignId: campaign.id });
    expect(seen.events).toHaveLength(1);
    expect(seen.jobs).toBe(0);
  });

  it('leaves nothing behind when the caller’s transaction rolls back', async () => {
    const { network, offer } = await openOffer();
    const rolledBack = new Error('caller failed after accepting');
    await expect(
      database().transaction(async (tx) => {
        await acceptOffer({ tx, networkId: network.id, offerId: offer.id });
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    const [row] = await database().select().from(offers).where(eq(offers.id, offer.id));
    expect(row).toMatchObject({ status: 'open', creativeId: null, version: offer.version });
    expect(await sideEffects(database(), offer.id)).toEqual({ creatives: [], events: [], jobs: 0 });
  });

  it('refuses an offer that is no longer open (accepted, or expired) with a conflict naming its state', async () => {
    const { network, offer } = await openOffer();
    await database().transaction((tx) => acceptOffer({ tx, networkId: network.id, offerId: offer.id }));
    const again = await refusal(database().transaction((tx) => acceptOffer({ tx, networkId: network.id, offerId: offer.id })));
    expect(again.kind).toBe('conflict');
    expect(again.detail).toMatch(/accepted/);

    const past = await openOffer({ expiresAt: new Date(Date.now() + 50) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const expired = await refusal(database().transaction((tx) => acceptOffer({ tx, networkId: past.network.id, offerId: past.offer.id })));
    expect(expired.kind).toBe('conflict');
    expect(expired.detail).toMatch(/expired/);
  });

  it('does not find an offer of another network', async () => {
    const { offer } = await openOffer();
    const other = await createNetworkRow();
    const error = await refusal(database().transaction((tx) => acceptOffer({ tx, networkId: other.id, offerId: offer.id })));
    expect(error.kind).toBe('not-found');
  });

  it('of concurrent accepts exactly one wins: one creative, one event', async () => {
    const { network, offer } = await openOffer();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => database().transaction((tx) => acceptOffer({ tx, networkId: network.id, offerId: offer.id }))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as AppError).kind).toBe('conflict');
    const left = await sideEffects(database(), offer.id);
    expect(left.creatives).toHaveLength(1);
    expect(left.events).toHaveLength(1);
  });
});
