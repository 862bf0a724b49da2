import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { creativeAudio, creatives } from '@/db/schema';
import { completeCreative } from '@/server/services/creatives/complete-creative';
import { withdrawLapsedConsents } from '@/server/services/creatives/consent-gate';
import { previewCampaign } from '@/server/services/creatives/preview-campaign';
import { AppError } from '@/server/errors';
import { acceptOffer } from '@/server/services/offers/decide-offer';
import { grantVoiceConsent, revokeVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { currentStatement } from '@/server/services/voice-consents/statement';
import type { MasteredAudio } from '@/server/synth/master';
import { adInventory, createNetworkRow, creativeRow, offerRow, useTestDatabase, voiceConsentRow } from '@/tests/support/fixtures';
import { heldTransaction } from './held-transaction';

// The consent gate (server/services/creatives/consent-gate.ts) under interleavings: each test holds
// one transaction open at the worst moment and shows what the other waits for. A synthesis job of
// another test file's worker may pick up a creative queued here, so a creative admitted to
// synthesis is asserted as "not awaiting consent", whatever step its job has reached.

useTestDatabase();

const statement = currentStatement();
const granted = {
  status: 'granted' as const,
  grantedAt: new Date(Date.now() - 60_000),
  statementVersion: statement.version,
  statementSha256: statement.sha256,
};

async function openOffer() {
  const network = await createNetworkRow();
  const inventory = await adInventory(network.id);
  const offer = await offerRow(network.id, inventory);
  return { networkId: network.id, ...inventory, offer };
}

async function creativeOf(networkId: string, offerId: string) {
  const [row] = await database()
    .select()
    .from(creatives)
    .where(and(eq(creatives.networkId, networkId), eq(creatives.offerId, offerId)));
  return row!;
}

const audio: MasteredAudio = {
  durationMs: 1000,
  sampleRate: 44_100,
  renditions: [{ format: 'mp3', mimeType: 'audio/mpeg', bytes: Buffer.from('ID3 fake mp3'), loudnessLufs: -16, truePeakDbtp: -1.5 }],
} as MasteredAudio;

describe('accept: generating under a covering consent, else awaiting it', () => {
  it('with no consent the creative awaits one and no synthesis is queued; a grant then starts it', async () => {
    const { networkId, podcast, offer } = await openOffer();
    await database().transaction((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    const waiting = await creativeOf(networkId, offer.id);
    expect(waiting).toMatchObject({ status: 'awaiting_consent', voiceConsentId: null, syntheticVoice: true, revision: 1 });
    const { consent } = await voiceConsentRow(networkId, podcast);
    await database().transaction((tx) => grantVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'phone' }));
    const resumed = await creativeOf(networkId, offer.id);
    expect(resumed.status).not.toBe('awaiting_consent');
    expect(resumed.voiceConsentId).toBe(consent.id);
  });

  it('a grant naming advertisers starts only the creatives of those advertisers', async () => {
    const covered = await openOffer();
    const other = await adInventory(covered.networkId);
    const otherOffer = await offerRow(covered.networkId, { campaign: other.campaign, podcast: covered.podcast });
    for (const offerId of [covered.offer.id, otherOffer.id]) {
      await database().transaction((tx) => acceptOffer({ tx, networkId: covered.networkId, offerId }));
    }
    const { consent } = await voiceConsentRow(covered.networkId, covered.podcast, { scope: 'advertisers', advertiserIds: [covered.advertiser.id] });
    await database().transaction((tx) => grantVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'phone' }));
    expect((await creativeOf(covered.networkId, covered.offer.id)).voiceConsentId).toBe(consent.id);
    expect(await creativeOf(covered.networkId, otherOffer.id)).toMatchObject({ status: 'awaiting_consent', voiceConsentId: null });
  });

  it('a consent for other advertisers does not start it', async () => {
    const { networkId, podcast, offer } = await openOffer();
    const { advertiser: other } = await adInventory(networkId);
    await voiceConsentRow(networkId, podcast, { ...granted, scope: 'advertisers', advertiserIds: [other.id] });
    await database().transaction((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    expect((await creativeOf(networkId, offer.id)).status).toBe('awaiting_consent');
  });

  it('a grant racing an accept never leaves the creative awaiting a granted consent (the grant waits for the accept)', async () => {
    const { networkId, podcast, offer } = await openOffer();
    const { consent } = await voiceConsentRow(networkId, podcast);
    // The accept has read "no consent" and holds the podcast's lock, not yet committed.
    const accept = heldTransaction((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    await expect.poll(accept.written, { timeout: 10_000 }).toBe(true);
    let grantDone = false;
    const grant = database()
      .transaction((tx) => grantVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'phone' }))
      .then(() => (grantDone = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(grantDone).toBe(false);
    accept.commit();
    await Promise.all([accept.result, grant]);
    const creative = await creativeOf(networkId, offer.id);
    expect(creative.status).not.toBe('awaiting_consent');
    expect(creative.voiceConsentId).toBe(consent.id);
  });

  it('an accept racing a grant waits for it and starts generating under it', async () => {
    const { networkId, podcast, offer } = await openOffer();
    const { consent } = await voiceConsentRow(networkId, podcast);
    const grant = heldTransaction((tx) => grantVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'phone' }));
    await expect.poll(grant.written, { timeout: 10_000 }).toBe(true);
    const accept = database().transaction((tx) => acceptOffer({ tx, networkId, offerId: offer.id }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    grant.commit();
    await Promise.all([grant.result, accept]);
    const creative = await creativeOf(networkId, offer.id);
    expect(creative.status).not.toBe('awaiting_consent');
    expect(creative.voiceConsentId).toBe(consent.id);
  });
});

describe('revocation withdraws what was made under the consent', () => {
  async function generatingCreative() {
    const setup = await openOffer();
    const { consent } = await voiceConsentRow(setup.networkId, setup.podcast, granted);
    // Made directly, with no job that a worker could finish first.
    const creative = await creativeRow(setup.networkId, setup.offer, { status: 'generating', voiceConsentId: consent.id });
    return { ...setup, consent, creative };
  }

  const revoke = (consent: Awaited<ReturnType<typeof voiceConsentRow>>['consent']) =>
    database().transaction((tx) => revokeVoiceConsent({ tx, consent: { ...consent, ...granted }, by: { host: false, actorKeyId: 'key_test' } }));

  it('a revocation waits for a synthesis committing under the consent, then withdraws its audio', async () => {
    const { networkId, consent, creative } = await generatingCreative();
    const completing = heldTransaction((tx) => completeCreative({ tx, creative, audio }));
    await expect.poll(completing.written, { timeout: 10_000 }).toBe(true);
    let revokedDone = false;
    const revocation = revoke(consent).then(() => (revokedDone = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(revokedDone).toBe(false);
    completing.commit();
    expect(await completing.result).toBe(true);
    await revocation;
    const after = await creativeOf(networkId, creative.offerId);
    expect(after).toMatchObject({ status: 'awaiting_consent', voiceConsentId: null, reviewTokenHash: null, renditions: null });
    const kept = await database().select().from(creativeAudio).where(eq(creativeAudio.creativeId, creative.id));
    expect(kept).toHaveLength(0);
  });

  it('a synthesis finishing after a revocation stores nothing', async () => {
    const { networkId, consent, creative } = await generatingCreative();
    await revoke(consent);
    expect(await database().transaction((tx) => completeCreative({ tx, creative, audio }))).toBe(false);
    expect(await creativeOf(networkId, creative.offerId)).toMatchObject({ status: 'awaiting_consent', renditions: null });
    expect(await database().select().from(creativeAudio).where(eq(creativeAudio.creativeId, creative.id))).toHaveLength(0);
  });

  it('a creative another granted consent still covers moves to it and keeps going', async () => {
    const { networkId, podcast, consent, creative } = await generatingCreative();
    const { consent: second } = await voiceConsentRow(networkId, podcast, granted);
    await revoke(consent);
    expect(await creativeOf(networkId, creative.offerId)).toMatchObject({ status: 'generating', voiceConsentId: second.id });
  });
});

describe('a consent past its expires_at', () => {
  it('covers nothing: the cron withdraws what was made under it, and nothing of a consent still in force', async () => {
    const lapsedSetup = await openOffer();
    const { consent: lapsed } = await voiceConsentRow(lapsedSetup.networkId, lapsedSetup.podcast, {
      ...granted,
      expiresAt: new Date(Date.now() - 1000),
    });
    const approved = await creativeRow(lapsedSetup.networkId, lapsedSetup.offer, { status: 'approved', voiceConsentId: lapsed.id, renditions: [] });
    await database()
      .insert(creativeAudio)
      .values({ creativeId: approved.id, networkId: lapsedSetup.networkId, format: 'mp3', bytes: Buffer.from('x') });
    const inForceSetup = await openOffer();
    const { consent: inForce } = await voiceConsentRow(inForceSetup.networkId, inForceSetup.podcast, {
      ...granted,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const kept = await creativeRow(inForceSetup.networkId, inForceSetup.offer, { status: 'approved', voiceConsentId: inForce.id });

    expect(await withdrawLapsedConsents({ db: database() })).toBeGreaterThanOrEqual(1);
    expect(await creativeOf(lapsedSetup.networkId, lapsedSetup.offer.id)).toMatchObject({ status: 'awaiting_consent', voiceConsentId: null });
    expect(await database().select().from(creativeAudio).where(eq(creativeAudio.creativeId, approved.id))).toHaveLength(0);
    expect(await creativeOf(inForceSetup.networkId, inForceSetup.offer.id)).toMatchObject({
      id: kept.id,
      status: 'approved',
      voiceConsentId: inForce.id,
    });
  });
});

describe('a preview is the host’s voice too', () => {
  it('without a covering consent it is refused before anything is synthesized (409 voice-consent-required)', async () => {
    const { networkId, podcast, campaign } = await openOffer();
    const { advertiser: other } = await adInventory(networkId);
    await voiceConsentRow(networkId, podcast, { ...granted, scope: 'advertisers', advertiserIds: [other.id] });
    const error = await previewCampaign({ db: database(), networkId, campaignId: campaign.id, podcastId: podcast.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'voice-consent-required' });
  });
});
