import { eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { database } from '@/db/client';
import { creatives, offers } from '@/db/schema';
import { expireOffers } from '@/server/services/offers/expire-offers';
import { api, grantVoiceConsentOverHttp } from '@/tests/support/api';
import { adInventory, networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';
import { reportReliability } from '@/tests/support/reliability';

useTestDatabase();

interface Offer {
  id: string;
  status: string;
  creative_id: string | null;
  campaign_id: string;
  podcast_id: string;
  reject_reason: string | null;
  version: number;
}
interface Creative {
  id: string;
  status: string;
  mime_type: string | null;
  duration_ms: number | null;
  size_bytes: number | null;
  audio_url: string | null;
  failure_reason: string | null;
}

async function setup(options: Parameters<typeof adInventory>[1] = {}) {
  const { id: n, admin, reader } = await networkWithKeys();
  const inventory = await adInventory(n, options);
  const offer = async (body: Record<string, unknown> = {}) =>
    api<Offer>('POST', `/networks/${n}/offers`, {
      token: admin,
      body: { campaign_id: inventory.campaign.id, podcast_id: inventory.podcast.id, ...body },
    });
  /** The host grants their voice for every campaign: creatives are synthesized from then on. */
  const consent = () => grantVoiceConsentOverHttp((method, path, body) => api(method, path, { token: admin, body }), n, inventory.podcast.id);
  return { n, admin, reader, ...inventory, offer, consent };
}

async function waitForCreative(n: string, id: string, token: string, until: (c: Creative) => boolean, ms = 30_000): Promise<Creative> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await api<Creative>('GET', `/networks/${n}/creatives/${id}`, { token });
    if (until(res.body) || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('offers', () => {
  it('are made only for draft or active campaigns, to opted-in podcasts', async () => {
    const ok = await setup();
    const created = await ok.offer({ price_cents: 25_000, currency: 'USD' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', creative_id: null, price_cents: 25_000, currency: 'USD' });

    expect((await (await setup({ campaignStatus: 'paused' })).offer()).status).toBe(409);
    const notOptedIn = await (await setup({ optedIn: false })).offer();
    expect(notOptedIn.status).toBe(409);
    expect((notOptedIn.body as unknown as { detail: string }).detail).toMatch(/opted in/);
  });

  it('refuses bad input with 400 and read_only writers with 403', async () => {
    const s = await setup();
    for (const body of [
      { campaign_id: 'cmp_00000000000000000000000000' },
      { expires_at: '2001-01-01T00:00:00Z' },
      { price_cents: 100 },
      { currency: 'usd', price_cents: 1 },
      { price_cents: -1, currency: 'USD' },
      { colour: 'red' },
    ]) {
      expect((await s.offer(body)).status, JSON.stringify(body)).toBe(400);
    }
    const byReader = await api('POST', `/networks/${s.n}/offers`, {
      token: s.reader,
      body: { campaign_id: s.campaign.id, podcast_id: s.podcast.id },
    });
    expect(byReader.status).toBe(403);
  });

  it('accept → creative awaiting the host’s consent → granted: generating → pending approval with playable audio; events in the log', async () => {
    const s = await setup();
    const offer = (await s.offer()).body;
    const accepted = await api<Offer>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
    expect(accepted.body.creative_id).toMatch(/^crv_/);
    const path = `/networks/${s.n}/creatives/${accepted.body.creative_id}`;

    // No consent of the host's yet: nothing is synthesized in their voice, and there is no audio.
    const awaiting = await api<Creative>('GET', path, { token: s.reader });
    expect(awaiting.body).toMatchObject({ status: 'awaiting_consent', mime_type: null, audio_url: null, failure_reason: null });
    expect((await api('GET', `${path}/audio`, { token: s.admin })).status).toBe(409);

    // The host grants: the creative waiting for it is made.
    await s.consent();
    const creative = await waitForCreative(
      s.n,
      accepted.body.creative_id!,
      s.reader,
      (c) => c.status !== 'awaiting_consent' && c.status !== 'generating',
    );
    expect(creative).toMatchObject({ status: 'pending_approval', mime_type: 'audio/mpeg', failure_reason: null });
    expect(creative.duration_ms).toBeGreaterThan(500);
    // Not offered for delivery until approved: no audio_url, and only an administrator (reviewing
    // on the host's behalf) may play it.
    expect(creative.audio_url).toBeNull();
    expect((await api('GET', `${path}/audio`, { token: s.reader })).status).toBe(409);

    const audio = await fetch(`${inject('baseUrl')}/v1${path}/audio`, { headers: { authorization: `Bearer ${s.admin}` } });
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg'); // MP3 unless asked otherwise (creative-audio.test.ts)
    const bytes = Buffer.from(await audio.arrayBuffer());
    expect(Number(audio.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBe(creative.size_bytes);
    expect(bytes[0]).toBe(0xff); // an MPEG audio frame, no ID3 tag in front
    expect(audio.headers.get('accept-ranges')).toBe('bytes');

    const events = await api<{ items: Array<{ type: string; data: Record<string, unknown> }> }>('GET', `/networks/${s.n}/events`, {
      token: s.reader,
    });
    const accepted_ = events.body.items.find((e) => e.type === 'offer.accepted');
    expect(accepted_!.data).toEqual({
      offer_id: offer.id,
      campaign_id: s.campaign.id,
      podcast_id: s.podcast.id,
      creative_id: creative.id,
      tracking_url: expect.stringMatching(/\/t\/trk_[0-9a-f]{32}\?/),
    });
    const ready = events.body.items.find((e) => e.type === 'creative.ready');
    expect(ready!.data).toMatchObject({ creative_id: creative.id, offer_id: offer.id, mime_type: 'audio/mpeg' });
    expect(JSON.stringify(ready!.data)).not.toMatch(/mespeak|elevenlabs|bytea|storage/i);

    // A campaign's creatives (the console's campaign page lists them).
    const ofCampaign = await api<{ items: Creative[] }>('GET', `/networks/${s.n}/creatives?campaign_id=${s.campaign.id}`, { token: s.reader });
    expect(ofCampaign.body.items.map((c) => c.id)).toEqual([creative.id]);
    const ofOther = await api<{ items: Creative[] }>('GET', `/networks/${s.n}/creatives?campaign_id=cmp_none`, { token: s.reader });
    expect(ofOther.body.items).toEqual([]);
  });

  it('accept under the host’s consent: the creative starts generating at once', async () => {
    const s = await setup();
    await s.consent();
    const offer = (await s.offer()).body;
    const accepted = await api<Offer>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    expect(accepted.status).toBe(200);
    const creative = await api<Creative>('GET', `/networks/${s.n}/creatives/${accepted.body.creative_id}`, { token: s.reader });
    expect(['generating', 'pending_approval']).toContain(creative.body.status);
    expect((await waitForCreative(s.n, creative.body.id, s.reader, (c) => c.status !== 'generating')).status).toBe('pending_approval');
  });

  it('serves byte ranges for seeking, and 416 past the end', async () => {
    const s = await setup();
    await s.consent();
    const offer = (await s.offer()).body;
    const accepted = await api<Offer>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    const creative = await waitForCreative(s.n, accepted.body.creative_id!, s.reader, (c) => c.status === 'pending_approval');
    const path = `/networks/${s.n}/creatives/${creative.id}/audio`;
    // An administrator plays a creative pending approval (to review it); seeking works the same.
    const part = await api<string>('GET', path, { token: s.admin, headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${creative.size_bytes}`);
    expect(part.headers.get('content-length')).toBe('100');
    const past = await api('GET', path, { token: s.admin, headers: { range: `bytes=${creative.size_bytes}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${creative.size_bytes}`);
  });

  it('answers 409 for accepting or rejecting an offer that is no longer open', async () => {
    const s = await setup();
    const offer = (await s.offer()).body;
    expect((await api('POST', `/networks/${s.n}/offers/${offer.id}/reject`, { token: s.admin, body: { reason: 'Off-brand' } })).status).toBe(200);
    const again = await api<{ detail: string }>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/no longer open.*rejected/);
    expect((await api('POST', `/networks/${s.n}/offers/${offer.id}/reject`, { token: s.admin })).status).toBe(409);
    const events = await api<{ items: Array<{ data: Record<string, unknown> }> }>('GET', `/networks/${s.n}/events?type=offer.rejected`, {
      token: s.reader,
    });
    expect(events.body.items).toHaveLength(1);
    expect(events.body.items[0]!.data).toMatchObject({ offer_id: offer.id, reason: 'Off-brand' });
  });

  it('10 concurrent accepts: exactly one wins, one event, one creative', async () => {
    const s = await setup();
    const offer = (await s.offer()).body;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api<Offer>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const made = await database().select().from(creatives).where(eq(creatives.offerId, offer.id));
    expect(made).toHaveLength(1);
    const events = await api<{ items: unknown[] }>('GET', `/networks/${s.n}/events?type=offer.accepted`, { token: s.reader });
    expect(events.body.items).toHaveLength(1);
    reportReliability('offer-accept-race', {
      claim: '10 concurrent accepts of one offer: one winner, one event, one creative',
      figures: { requests: results.length, '200': 1, '409': 9, events: events.body.items.length, creatives: made.length },
    });
  });

  it('accept and reject at once: exactly one of them wins', async () => {
    const s = await setup();
    const offer = (await s.offer()).body;
    const [a, r] = await Promise.all([
      api('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin }),
      api('POST', `/networks/${s.n}/offers/${offer.id}/reject`, { token: s.admin }),
    ]);
    expect([a.status, r.status].sort()).toEqual([200, 409]);
  });

  it('expires: past expires_at an offer reads expired, cannot be accepted, and the cron marks it', async () => {
    const s = await setup();
    const offer = (await s.offer({ expires_at: new Date(Date.now() + 800).toISOString() })).body;
    await new Promise((r) => setTimeout(r, 900));
    expect((await api<Offer>('GET', `/networks/${s.n}/offers/${offer.id}`, { token: s.reader })).body.status).toBe('expired');
    const late = await api<{ detail: string }>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/expired/);
    expect(await expireOffers({ db: database() })).toBeGreaterThanOrEqual(1);
    const [row] = await database().select().from(offers).where(eq(offers.id, offer.id));
    expect(row!.status).toBe('expired');
  });

  it('lists with filters and pages', async () => {
    const s = await setup();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await s.offer()).body.id);
    await api('POST', `/networks/${s.n}/offers/${made[1]}/reject`, { token: s.admin });
    const open = await api<{ items: Offer[] }>('GET', `/networks/${s.n}/offers?status=open`, { token: s.reader });
    expect(open.body.items.map((o) => o.id)).toEqual([made[0], made[2]]);
    const page = await api<{ items: Offer[]; next_cursor: string }>('GET', `/networks/${s.n}/offers?limit=2&campaign_id=${s.campaign.id}`, {
      token: s.reader,
    });
    expect(page.body.items.map((o) => o.id)).toEqual(made.slice(0, 2));
    const next = await api<{ items: Offer[]; next_cursor: null }>(
      'GET',
      `/networks/${s.n}/offers?limit=2&campaign_id=${s.campaign.id}&cursor=${encodeURIComponent(page.body.next_cursor)}`,
      { token: s.reader },
    );
    expect(next.body.items.map((o) => o.id)).toEqual([made[2]]);
    expect(next.body.next_cursor).toBeNull();
  });
});

describe('creatives', () => {
  it('retry is only for failed creatives (409 otherwise); a failed one generates again', async () => {
    const s = await setup();
    await s.consent();
    const offer = (await s.offer()).body;
    const accepted = await api<Offer>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    const id = accepted.body.creative_id!;
    await waitForCreative(s.n, id, s.reader, (c) => c.status === 'pending_approval');
    expect((await api('POST', `/networks/${s.n}/creatives/${id}/retry`, { token: s.admin })).status).toBe(409);

    await database().update(creatives).set({ status: 'failed', failureReason: 'The voice service is unavailable.' }).where(eq(creatives.id, id));
    const retried = await api<Creative>('POST', `/networks/${s.n}/creatives/${id}/retry`, { token: s.admin });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'generating', failure_reason: null });
    expect((await waitForCreative(s.n, id, s.reader, (c) => c.status !== 'generating')).status).toBe('pending_approval');
  });

  it('a creative with no audio (failed) has none to play, not even for an administrator (409)', async () => {
    const s = await setup();
    const offer = (await s.offer()).body;
    const accepted = await api<Offer>('POST', `/networks/${s.n}/offers/${offer.id}/accept`, { token: s.admin });
    await database().update(creatives).set({ status: 'failed' }).where(eq(creatives.id, accepted.body.creative_id!));
    for (const token of [s.reader, s.admin])
      expect((await api('GET', `/networks/${s.n}/creatives/${accepted.body.creative_id}/audio`, { token })).status).toBe(409);
  });

  it('previews the start of the script in the podcast’s voice, once its host has granted it', async () => {
    const s = await setup();
    const before = await api<{ type: string }>('POST', `/networks/${s.n}/campaigns/${s.campaign.id}/preview`, {
      token: s.reader,
      body: { podcast_id: s.podcast.id },
    });
    expect(before.status).toBe(409);
    expect(before.body.type).toMatch(/\/errors\/voice-consent-required$/);
    await s.consent();
    const res = await api<string>('POST', `/networks/${s.n}/campaigns/${s.campaign.id}/preview`, {
      token: s.reader,
      body: { podcast_id: s.podcast.id },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(Number(res.headers.get('x-audio-duration-ms'))).toBeGreaterThan(300);
    const bad = await api('POST', `/networks/${s.n}/campaigns/${s.campaign.id}/preview`, { token: s.reader, body: {} });
    expect(bad.status).toBe(400);
  });

  it('takes no Idempotency-Key on a preview: two at once with the same key both get audio (no transaction waits with them)', async () => {
    const s = await setup();
    await s.consent();
    const headers = { 'idempotency-key': `preview-${s.campaign.id}` };
    const preview = () =>
      api<string>('POST', `/networks/${s.n}/campaigns/${s.campaign.id}/preview`, { token: s.reader, body: { podcast_id: s.podcast.id }, headers });
    const answers = await Promise.all([preview(), preview()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(answers.map((r) => r.headers.get('idempotent-replayed'))).toEqual([null, null]);
  });
});
