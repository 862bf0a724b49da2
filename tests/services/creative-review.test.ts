import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { campaigns, creativeAudio, creatives, offers, voiceConsents } from '@/db/schema';
import type { AppError } from '@/server/errors';
import { completeCreative } from '@/server/services/creatives/complete-creative';
import { approveCreative, requestCreativeChanges, type Reviewer } from '@/server/services/creatives/decide-creative-review';
import { findCreative } from '@/server/services/creatives/find-creatives';
import { grantVoiceConsent, revokeVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { currentStatement } from '@/server/services/voice-consents/statement';
import type { MasteredAudio } from '@/server/synth/master';
import { adInventory, createNetworkRow, creativeRow, grantedConsentRow, offerRow, useTestDatabase, voiceConsentRow } from '@/tests/support/fixtures';
import { heldTransaction } from './held-transaction';

// The review rules (server/services/creatives/decide-creative-review.ts) with transactions of the
// test's own: what a decision writes, what it refuses, and — holding one transaction open at the
// worst moment — what another waits for. A synthesis job of another file's worker may take up a
// revision queued here, so a revision admitted to synthesis is asserted as "not awaiting consent".

useTestDatabase();

const statement = currentStatement();
const admin: Reviewer = { host: false, actorKeyId: 'key_test' };
const audio: MasteredAudio = {
  durationMs: 1000,
  sampleRate: 44_100,
  renditions: [{ format: 'mp3', mimeType: 'audio/mpeg', bytes: Buffer.from('ID3 fake mp3'), loudnessLufs: -16, truePeakDbtp: -1.5 }],
} as MasteredAudio;

const SCRIPT = 'Sleep better tonight with Acme. Use code POD for twenty percent off.';

/** A creative synthesized under a granted consent (completeCreative: pending approval, its review opened), of an accepted offer. */
async function pendingCreative(requiredLines: string[] = []) {
  const network = await createNetworkRow();
  const inventory = await adInventory(network.id, { script: SCRIPT });
  await database().update(campaigns).set({ requiredLines }).where(eq(campaigns.id, inventory.campaign.id));
  const offer = await offerRow(network.id, inventory, { status: 'accepted' });
  const { consent } = await grantedConsentRow(network.id, inventory.podcast);
  const made = await creativeRow(network.id, offer, { status: 'generating', voiceConsentId: consent.id, script: SCRIPT });
  await database().update(offers).set({ creativeId: made.id }).where(eq(offers.id, offer.id));
  expect(await database().transaction((tx) => completeCreative({ tx, creative: made, audio }))).toBe(true);
  const creative = (await findCreative({ db: database(), networkId: network.id, id: made.id }))!;
  expect(creative.status).toBe('pending_approval');
  return { networkId: network.id, ...inventory, offer, consent, creative };
}

const read = async (networkId: string, id: string) => (await findCreative({ db: database(), networkId, id }))!;

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected a refusal').toBeDefined();
  return error as AppError;
}

describe('requesting changes', () => {
  it('makes revision n + 1 through the consent gate, decides the old one, points the offer to the new one and drops the old audio', async () => {
    const { offer, consent, creative } = await pendingCreative();
    expect(await database().select().from(creativeAudio).where(eq(creativeAudio.creativeId, creative.id))).toHaveLength(1);
    const { previous, revision } = await database().transaction((tx) =>
      requestCreativeChanges({ tx, creative, by: admin, comment: 'Slower.', script: 'Sleep better. Use code POD.' }),
    );
    expect(previous).toMatchObject({
      status: 'changes_requested',
      reviewedBy: 'administrator',
      reviewedByKeyId: 'key_test',
      reviewComment: 'Slower.',
    });
    expect(previous.reviewedAt).toBeInstanceOf(Date);
    expect(revision).toMatchObject({
      offerId: offer.id,
      revision: 2,
      previousRevisionId: creative.id,
      script: 'Sleep better. Use code POD.',
      voice: creative.voice,
      status: 'generating',
      voiceConsentId: consent.id,
      reviewedAt: null,
      reviewTokenHash: null,
    });
    const [pointed] = await database().select().from(offers).where(eq(offers.id, offer.id));
    expect(pointed!.creativeId).toBe(revision.id);
    expect(pointed!.version).toBe(offer.version + 1);
    expect(await database().select().from(creativeAudio).where(eq(creativeAudio.creativeId, creative.id))).toHaveLength(0);
    // The decided one refuses another decision (409), whoever asks.
    const again = await refusal(database().transaction((tx) => approveCreative({ tx, creative: previous, by: admin })));
    expect(again.kind).toBe('conflict');
    expect(again.message).toContain('changes_requested');
  });

  it('keeps the script when none is sent; refuses one lacking a required line (400 naming it) and the 21st revision (409), writing nothing', async () => {
    const { networkId, offer, creative } = await pendingCreative(['Use code POD']);
    const lacking = await refusal(
      database().transaction((tx) => requestCreativeChanges({ tx, creative, by: admin, comment: 'x', script: 'use code pod for a deal' })),
    );
    expect(lacking).toMatchObject({
      kind: 'bad-request',
      extra: { errors: [{ path: 'script', message: 'Missing the required line: “Use code POD”' }] },
    });
    await database().update(creatives).set({ revision: 20 }).where(eq(creatives.id, creative.id));
    const last = await refusal(
      database().transaction((tx) =>
        requestCreativeChanges({ tx, creative: { ...creative, revision: 20 }, by: admin, comment: 'x', script: undefined }),
      ),
    );
    expect(last.kind).toBe('conflict');
    expect(await read(networkId, creative.id)).toMatchObject({ status: 'pending_approval', reviewedAt: null });
    await database().update(creatives).set({ revision: 1 }).where(eq(creatives.id, creative.id));
    const { revision } = await database().transaction((tx) =>
      requestCreativeChanges({ tx, creative, by: { host: true }, comment: 'Again', script: undefined }),
    );
    expect(revision).toMatchObject({ script: SCRIPT, revision: 2, offerId: offer.id });
    expect(await read(networkId, creative.id)).toMatchObject({ status: 'changes_requested', reviewedBy: 'host', reviewedByKeyId: null });
  });

  it('a grant racing a request for changes that found no consent waits for it, then starts the new revision', async () => {
    const { networkId, podcast, consent, creative } = await pendingCreative();
    // The consent the revision was made under no longer covers the advertiser; another request to the host is pending.
    await database()
      .update(voiceConsents)
      .set({ scope: 'advertisers', advertiserIds: ['adv_00000000000000000000000000'] })
      .where(eq(voiceConsents.id, consent.id));
    const { consent: asked } = await voiceConsentRow(networkId, podcast);
    const request = heldTransaction((tx) => requestCreativeChanges({ tx, creative, by: admin, comment: 'Again', script: undefined }));
    await expect.poll(request.written).toBe(true);
    let granted = false;
    const grant = database()
      .transaction((tx) => grantVoiceConsent({ tx, consent: asked, statementVersion: statement.version, userAgent: 'phone' }))
      .then(() => (granted = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(granted).toBe(false);
    request.commit();
    const { revision } = await request.result;
    expect(revision.status).toBe('awaiting_consent');
    await grant;
    const after = await read(networkId, revision.id);
    expect(after.status).not.toBe('awaiting_consent');
    expect(after.voiceConsentId).toBe(asked.id);
  });
});

describe('the host decides through the link of the audio they heard', () => {
  it('a link read before its revision was withdrawn and made again decides nothing (404): the new audio has a link of its own', async () => {
    const { networkId, podcast, consent, creative } = await pendingCreative();
    const heard = creative; // as the link's gate read it
    const granted = (await database().select().from(voiceConsents).where(eq(voiceConsents.id, consent.id)))[0]!;
    await database().transaction((tx) => revokeVoiceConsent({ tx, consent: granted, by: { host: false, actorKeyId: 'key_test' } }));
    expect(await read(networkId, creative.id)).toMatchObject({ status: 'awaiting_consent', reviewTokenHash: null });
    // A new consent: the creative is made again, and its review opens with a new link.
    const { consent: again } = await voiceConsentRow(networkId, podcast);
    await database().transaction((tx) => grantVoiceConsent({ tx, consent: again, statementVersion: statement.version, userAgent: 'phone' }));
    const regenerating = await read(networkId, creative.id);
    if (regenerating.status === 'generating') await database().transaction((tx) => completeCreative({ tx, creative: regenerating, audio }));
    const remade = await read(networkId, creative.id);
    expect(remade.status).toBe('pending_approval');
    expect(remade.reviewTokenHash).not.toBe(heard.reviewTokenHash);

    const stale = await refusal(database().transaction((tx) => approveCreative({ tx, creative: heard, by: { host: true } })));
    expect(stale.kind).toBe('not-found');
    expect(await read(networkId, creative.id)).toMatchObject({ status: 'pending_approval', reviewedAt: null });
    // With the new revision's row (its new link), the host approves.
    expect((await database().transaction((tx) => approveCreative({ tx, creative: remade, by: { host: true } }))).status).toBe('approved');
    const [row] = await database()
      .select()
      .from(creatives)
      .where(and(eq(creatives.networkId, networkId), eq(creatives.id, creative.id)));
    expect(row).toMatchObject({ status: 'approved', reviewedBy: 'host' });
  });
});
