import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { adInventoryOverHttp, api, grantVoiceConsentOverHttp } from '@/tests/support/api';
import { createTestDatabase } from '@/tests/support/database';
import { spokenMs, startFakeVoiceVendor } from '@/tests/support/fake-voice-vendor';
import { adScript, expectMasteredCreative, type CreativeAudioFields } from '@/tests/support/loudness';
import { API_ONLY, freePort, startServerProcess, type ServerProcess } from '@/tests/support/server-process';

/**
 * The http synthesis provider end to end: a server of our own configured
 * against a fake vendor that can succeed, fail, refuse or hang. Each podcast's host has granted
 * their voice, so an accepted offer's creative is synthesized and left pending their approval.
 *
 * All but the last test run at once (`it.concurrent`): each has a network and a script of its own,
 * and sets the vendor's mode for its script alone, and counts only the vendor's requests for it.
 * The last stops and restarts the service, so it runs alone, after them.
 */
let vendor: Awaited<ReturnType<typeof startFakeVoiceVendor>>;
let server: ServerProcess;
let env: Record<string, string>;
let drop: () => Promise<void>;
const token = generateApiKeyToken('test');

async function start() {
  server = await startServerProcess({ ...API_ONLY, ...env });
}

beforeAll(async () => {
  vendor = await startFakeVoiceVendor();
  const db = await createTestDatabase('synth');
  drop = db.drop;
  env = {
    DATABASE_URL: db.url,
    PORT: String(await freePort()),
    BOOTSTRAP_SUPERUSER_TOKEN: token,
    SYNTH_PROVIDER: 'http',
    SYNTH_TEST_NETWORKS: 'provider', // every network is a test network under APP_ENV=test
    SYNTH_BASE_URL: vendor.url,
    SYNTH_API_KEY: 'vendor-secret',
    // The fake vendor encodes a long script's MP3 with ffmpeg per request: on a busy machine that
    // took over 20 s and both attempts timed out. Its time is not what these tests measure.
    SYNTH_TIMEOUT_MS: '90000',
    SYNTH_MAX_RETRIES: '0',
    SYNTH_JOB_MAX_ATTEMPTS: '2',
  };
  await start();
});

afterAll(async () => {
  await server?.stop();
  await vendor?.close();
  await drop?.();
});

async function newOffer(script = 'Acme makes mornings better.') {
  const call = <T>(method: string, path: string, body?: unknown) => api<T>(method, path, { token, baseUrl: server.url, body });
  const n = (await call<{ id: string }>('POST', '/networks', { name: 'Synth' })).body.id;
  const { campaignId, podcastId } = await adInventoryOverHttp(call, n, script);
  await grantVoiceConsentOverHttp(call, n, podcastId, { baseUrl: server.url });
  const off = await call<{ id: string }>('POST', `/networks/${n}/offers`, { campaign_id: campaignId, podcast_id: podcastId });
  expect(off.status).toBe(201);
  return { n, campaignId, podcastId, offerId: off.body.id };
}

/** The text the service asked the vendor to speak in `request`. */
const textOf = (request: { body: string }) => String((JSON.parse(request.body) as { text?: unknown }).text);
/** The vendor's requests from the `from`-th on whose text contains `script`: a test's own, while others run. */
const requestsFor = (script: string, from = 0) => vendor.requests.slice(from).filter((r) => textOf(r).includes(script));

async function creativeOf(n: string, offerId: string, until: (status: string) => boolean, ms = 60_000) {
  const offer = await api<{ creative_id: string }>('GET', `/networks/${n}/offers/${offerId}`, { token, baseUrl: server.url });
  const deadline = Date.now() + ms;
  for (;;) {
    const c = await api<CreativeAudioFields & { failure_reason: string | null }>('GET', `/networks/${n}/creatives/${offer.body.creative_id}`, {
      token,
      baseUrl: server.url,
    });
    if (until(c.body.status) || Date.now() > deadline) return { ...c.body, id: offer.body.creative_id };
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('voice synthesis through the http provider', () => {
  it.concurrent(
    'makes the creative (pending approval) with the vendor’s audio, calling it as documented',
    async () => {
      const script = 'Acme makes mornings better.';
      const before = vendor.requests.length;
      const o = await newOffer(script);
      await api('POST', `/networks/${o.n}/offers/${o.offerId}/accept`, { token, baseUrl: server.url });
      const creative = await creativeOf(o.n, o.offerId, (s) => s !== 'generating');
      expect(creative).toMatchObject({ status: 'pending_approval', mime_type: 'audio/mpeg' });
      const call = requestsFor(script, before).at(-1)!;
      expect(call.path).toMatch(/^\/v1\/text-to-speech\/[^/]+$/);
      expect(JSON.parse(call.body).text).toBe('Acme makes mornings better.');
    },
    90_000,
  );

  for (const [name, script] of [
    ['a one-sentence script', 'Sleep better tonight with Acme, and use code POD for twenty percent off.'],
    ['a 2,000-character script', adScript(2_000)],
  ] as const) {
    it.concurrent(
      `masters the vendor’s hot MP3 of ${name} to −16 ± 1 LUFS, true peak ≤ −1 dBTP, as an independent meter measures it`,
      async () => {
        const o = await newOffer(script);
        await api('POST', `/networks/${o.n}/offers/${o.offerId}/accept`, { token, baseUrl: server.url });
        const creative = await creativeOf(o.n, o.offerId, (s) => s !== 'generating', 150_000);
        expect(creative.status, `failure_reason: ${creative.failure_reason}`).toBe('pending_approval');
        const measured = await expectMasteredCreative(creative, { baseUrl: server.url, token });
        // The vendor spoke the whole script (its audio is as long as the text), at about −11 LUFS: mastering turned it down.
        expect(Math.abs(measured.wav.durationMs - spokenMs(script))).toBeLessThan(100);
      },
      200_000,
    );
  }

  it.concurrent(
    'answers 502 upstream-unavailable for a preview when the vendor fails',
    async () => {
      const script = 'Acme previews while the vendor fails.';
      vendor.setMode('fail', script);
      const o = await newOffer(script);
      const res = await api<{ type: string; detail: string }>('POST', `/networks/${o.n}/campaigns/${o.campaignId}/preview`, {
        token,
        baseUrl: server.url,
        body: { podcast_id: o.podcastId },
      });
      expect(res.status).toBe(502);
      expect(res.body.type).toMatch(/\/errors\/upstream-unavailable$/);
      expect(res.body.detail).not.toContain(vendor.url);
      vendor.setMode('ok', script);
      const ok = await api('POST', `/networks/${o.n}/campaigns/${o.campaignId}/preview`, {
        token,
        baseUrl: server.url,
        body: { podcast_id: o.podcastId },
      });
      expect(ok.status).toBe(200);
    },
    90_000,
  );

  it.concurrent(
    'fails the creative after its retries, with a client-facing reason and creative.failed',
    async () => {
      const script = 'Acme retries while the vendor is overloaded.';
      vendor.setMode('fail', script);
      const o = await newOffer(script);
      const before = vendor.requests.length;
      await api('POST', `/networks/${o.n}/offers/${o.offerId}/accept`, { token, baseUrl: server.url });
      const creative = await creativeOf(o.n, o.offerId, (s) => s !== 'generating', 40_000);
      expect(creative.status).toBe('failed');
      expect(requestsFor(script, before)).toHaveLength(2); // SYNTH_JOB_MAX_ATTEMPTS
      expect(creative.failure_reason).toMatch(/voice service/i);
      const events = await api<{ items: Array<{ data: Record<string, unknown> }> }>('GET', `/networks/${o.n}/events?type=creative.failed`, {
        token,
        baseUrl: server.url,
      });
      expect(events.body.items[0]!.data).toMatchObject({ creative_id: creative.id, offer_id: o.offerId, failure_reason: creative.failure_reason });
      expect(JSON.stringify(events.body.items[0]!.data)).not.toMatch(/127\.0\.0\.1|text-to-speech|vendor-secret/);

      vendor.setMode('ok', script);
      const retried = await api('POST', `/networks/${o.n}/creatives/${creative.id}/retry`, { token, baseUrl: server.url });
      expect(retried.status).toBe(200);
      expect((await creativeOf(o.n, o.offerId, (s) => s !== 'generating')).status).toBe('pending_approval');
    },
    120_000,
  );

  it.concurrent(
    'a permanent refusal fails the creative at once, without retries',
    async () => {
      const script = 'Acme says what the vendor refuses to.';
      vendor.setMode('reject', script);
      const o = await newOffer(script);
      const before = vendor.requests.length;
      await api('POST', `/networks/${o.n}/offers/${o.offerId}/accept`, { token, baseUrl: server.url });
      const creative = await creativeOf(o.n, o.offerId, (s) => s !== 'generating');
      expect(creative.status).toBe('failed');
      expect(requestsFor(script, before)).toHaveLength(1);
    },
    90_000,
  );

  it('a worker stopped during generation and restarted still finishes the creative', async () => {
    vendor.setMode('hang');
    const o = await newOffer();
    const before = vendor.requests.length;
    await api('POST', `/networks/${o.n}/offers/${o.offerId}/accept`, { token, baseUrl: server.url });
    const deadline = Date.now() + 10_000;
    while (vendor.requests.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(vendor.requests.length).toBeGreaterThan(before); // generation is under way
    expect(await server.stop('SIGTERM')).toBe(0);
    vendor.setMode('ok');
    await start();
    const creative = await creativeOf(o.n, o.offerId, (s) => s !== 'generating', 30_000);
    expect(creative.status).toBe('pending_approval');
  }, 120_000);
});
