import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { events, voiceConsents } from '@/db/schema';
import { grantVoiceConsent, refuseVoiceConsent, revokeVoiceConsent } from '@/server/services/voice-consents/decide-voice-consent';
import { coveringConsent, findVoiceConsent } from '@/server/services/voice-consents/find-voice-consents';
import { currentStatement } from '@/server/services/voice-consents/statement';
import { adInventory, createNetworkRow, useTestDatabase, voiceConsentRow } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The rules of voice consent, called on the services themselves (no server, no HTTP):
// tests/http/voice-consents.test.ts proves the operations through /v1 and the mail.

useTestDatabase();

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
const statement = currentStatement();
const grantedValues = (grantedAt: Date) => ({
  status: 'granted' as const,
  grantedAt,
  statementVersion: statement.version,
  statementSha256: statement.sha256,
});

async function podcastWithAdvertisers() {
  const network = await createNetworkRow();
  const { advertiser, podcast } = await adInventory(network.id);
  const { advertiser: other } = await adInventory(network.id);
  return { networkId: network.id, podcast, advertiser, other };
}

describe('coveringConsent: the granted consent that covers an advertiser at a moment', () => {
  it('finds a consent for all campaigns, or one naming the advertiser; none for an advertiser it does not name', async () => {
    const { networkId, podcast, advertiser, other } = await podcastWithAdvertisers();
    const find = (advertiserId: string, moment = new Date()) =>
      database().transaction((tx) => coveringConsent({ tx, networkId, podcastId: podcast.id, advertiserId, at: moment }));
    expect(await find(advertiser.id)).toBeNull();

    const { consent: named } = await voiceConsentRow(networkId, podcast, {
      ...grantedValues(at(-HOUR)),
      scope: 'advertisers',
      advertiserIds: [advertiser.id],
    });
    expect((await find(advertiser.id))?.id).toBe(named.id);
    expect(await find(other.id)).toBeNull();

    const { consent: everything } = await voiceConsentRow(networkId, podcast, grantedValues(at(-HOUR / 2)));
    // The most recent grant wins when several cover.
    expect((await find(advertiser.id))?.id).toBe(everything.id);
    expect((await find(other.id))?.id).toBe(everything.id);
    // Before either was granted, nothing covered.
    expect(await find(advertiser.id, at(-2 * HOUR))).toBeNull();
    expect((await find(advertiser.id, at(-HOUR + 1000)))?.id).toBe(named.id);
  });

  it('never returns a pending, refused, expired or revoked consent — a revoked one only for the time before its revocation', async () => {
    const { networkId, podcast, advertiser } = await podcastWithAdvertisers();
    const find = (moment = new Date()) =>
      database().transaction((tx) => coveringConsent({ tx, networkId, podcastId: podcast.id, advertiserId: advertiser.id, at: moment }));
    await voiceConsentRow(networkId, podcast);
    await voiceConsentRow(networkId, podcast, { status: 'refused', refusedAt: at(-HOUR), statementVersion: 1, statementSha256: statement.sha256 });
    const { consent: lapsed } = await voiceConsentRow(networkId, podcast, {
      ...grantedValues(at(-3 * HOUR)),
      expiresAt: at(-HOUR),
      linkExpiresAt: at(-HOUR),
    });
    const { consent: revoked } = await voiceConsentRow(networkId, podcast, {
      ...grantedValues(at(-5 * HOUR)),
      status: 'revoked',
      revokedAt: at(-4 * HOUR),
      revokedBy: 'host',
    });
    expect(await find()).toBeNull();
    expect((await find(at(-2 * HOUR)))?.id).toBe(lapsed.id);
    expect((await find(at(-4.5 * HOUR)))?.id).toBe(revoked.id);
    expect(await find(at(-3.9 * HOUR))).toBeNull();
  });

  it('reads only the network’s and the podcast’s own consents', async () => {
    const mine = await podcastWithAdvertisers();
    const theirs = await podcastWithAdvertisers();
    await voiceConsentRow(theirs.networkId, theirs.podcast, grantedValues(at(-HOUR)));
    const { podcast: sibling } = await adInventory(mine.networkId);
    await voiceConsentRow(mine.networkId, sibling, grantedValues(at(-HOUR)));
    const found = await database().transaction((tx) =>
      coveringConsent({ tx, networkId: mine.networkId, podcastId: mine.podcast.id, advertiserId: mine.advertiser.id, at: new Date() }),
    );
    expect(found).toBeNull();
    // Another network's podcast id, asked through this network: nothing either.
    const crossed = await database().transaction((tx) =>
      coveringConsent({ tx, networkId: mine.networkId, podcastId: theirs.podcast.id, advertiserId: theirs.advertiser.id, at: new Date() }),
    );
    expect(crossed).toBeNull();
  });

  it('with lock: share, holds the consent until the caller’s transaction ends: a revocation waits for it', async () => {
    const { networkId, podcast, advertiser } = await podcastWithAdvertisers();
    const { consent } = await voiceConsentRow(networkId, podcast, grantedValues(at(-HOUR)));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let found: unknown;
    const reader = database().transaction(async (tx) => {
      found = await coveringConsent({ tx, networkId, podcastId: podcast.id, advertiserId: advertiser.id, at: new Date(), lock: 'share' });
      await held;
    });
    await expect.poll(() => found).toBeTruthy();
    let revokedAt = 0;
    const revocation = database()
      .transaction((tx) => revokeVoiceConsent({ tx, consent, by: { host: false, actorKeyId: 'key_test' } }))
      .then(() => (revokedAt = Date.now()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(revokedAt).toBe(0);
    const releasedAt = Date.now();
    release();
    await Promise.all([reader, revocation]);
    expect(revokedAt).toBeGreaterThanOrEqual(releasedAt);
  });
});

describe('decisions are compare-and-set on the state read', () => {
  it('a refusal that read pending while a grant was being written waits for it, then loses with 409; nothing of it is written', async () => {
    const { networkId, podcast } = await podcastWithAdvertisers();
    const { consent } = await voiceConsentRow(networkId, podcast);
    let commitGrant!: () => void;
    const granting = new Promise<void>((resolve) => (commitGrant = resolve));
    let written = false;
    const grant = database().transaction(async (tx) => {
      await grantVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'phone' });
      written = true;
      await granting;
    });
    await expect.poll(() => written).toBe(true);
    // Both read the consent pending (the grant has not committed); the refusal's update queues on the row.
    const refused = refusal(
      database().transaction((tx) => refuseVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'laptop' })),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    commitGrant();
    await grant;
    const error = await refused;
    expect(error.kind).toBe('conflict');
    expect(error.detail).toMatch(/granted in the meantime/);
    const row = await database().transaction((tx) => findVoiceConsent({ db: tx, networkId, id: consent.id }));
    expect(row).toMatchObject({ status: 'granted', refusedAt: null, decisionUserAgent: 'phone' });
    const recorded = await database()
      .select()
      .from(events)
      .where(and(eq(events.networkId, networkId)));
    expect(recorded.map((e) => e.type)).toEqual(['voice_consent.granted']);
  });

  it('keeps at most 500 characters of a user agent', async () => {
    const { networkId, podcast } = await podcastWithAdvertisers();
    const { consent } = await voiceConsentRow(networkId, podcast);
    await database().transaction((tx) => grantVoiceConsent({ tx, consent, statementVersion: statement.version, userAgent: 'x'.repeat(2000) }));
    const [row] = await database().select().from(voiceConsents).where(eq(voiceConsents.id, consent.id));
    expect(row!.decisionUserAgent).toHaveLength(500);
  });
});
