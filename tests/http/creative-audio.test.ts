import { beforeAll, describe, expect, it, inject } from 'vitest';
import { creativeAudio } from '@/db/schema';
import { database } from '@/db/client';
import { api, grantVoiceConsentOverHttp, type Problem } from '@/tests/support/api';
import { adInventory, createNetworkRow, creativeRow, offerRow, personKey, useTestDatabase } from '@/tests/support/fixtures';
import { adScript, expectMasteredCreative, fetchAudio, type CreativeAudioFields } from '@/tests/support/loudness';

/**
 * Broadcast-ready creatives from the local provider (the shared test server runs it): loudness,
 * formats and their negotiation, on the bytes GET …/audio serves — to an administrator, who plays a
 * creative pending the host's approval to review it (the host granted their voice first). The http
 * provider's creatives are checked the same way in synthesis-upstream.test.ts.
 */
useTestDatabase();

const ONE_SENTENCE = 'Sleep better tonight with Acme, and use code POD for twenty percent off.';

/** A creative synthesized under the host's consent (pending approval), and an administrator's token to play it. */
async function synthesizedCreative(script: string, voice = 'warm') {
  const network = await createNetworkRow();
  const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
  const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
  const inventory = await adInventory(network.id, { script, voice });
  const n = network.id;
  await grantVoiceConsentOverHttp((method, path, body) => api(method, path, { token: admin.token, body }), n, inventory.podcast.id);
  const offer = await api<{ id: string }>('POST', `/networks/${n}/offers`, {
    token: admin.token,
    body: { campaign_id: inventory.campaign.id, podcast_id: inventory.podcast.id },
  });
  const accepted = await api<{ creative_id: string }>('POST', `/networks/${n}/offers/${offer.body.id}/accept`, { token: admin.token });
  const id = accepted.body.creative_id;
  const deadline = Date.now() + 150_000;
  for (;;) {
    const res = await api<CreativeAudioFields>('GET', `/networks/${n}/creatives/${id}`, { token: reader.token });
    if (res.body.status !== 'generating' || Date.now() > deadline) return { n, admin: admin.token, reader: reader.token, creative: res.body };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The one-sentence creative in the `warm` voice, made once: the first test measures it and the
 * renditions' tests download it (both only read it), instead of each synthesizing its own.
 */
let oneSentence: ReturnType<typeof synthesizedCreative> | undefined;
const oneSentenceCreative = () => (oneSentence ??= synthesizedCreative(ONE_SENTENCE, 'warm'));

describe('creatives a podcast host can publish (local provider)', () => {
  for (const [name, script, voice] of [
    ['a one-sentence script', ONE_SENTENCE, 'warm'],
    ['a 2,000-character script', adScript(2_000), 'deep'],
  ] as const) {
    it(`${name}: MP3 and WAV at −16 ± 1 LUFS, true peak ≤ −1 dBTP, 44.1 kHz, as an independent meter measures them`, async () => {
      expect(script.length).toBe(name.startsWith('a 2,000') ? 2_000 : ONE_SENTENCE.length);
      const { admin, creative } = await (script === ONE_SENTENCE && voice === 'warm' ? oneSentenceCreative() : synthesizedCreative(script, voice));
      await expectMasteredCreative(creative, { baseUrl: inject('baseUrl'), token: admin });
    }, 200_000);
  }
});

describe('GET …/creatives/{id}/audio chooses the rendition', () => {
  let url: string;
  let token: string;
  let sizes: { mp3: number; wav: number };

  beforeAll(async () => {
    const { n, admin, creative } = await oneSentenceCreative();
    expect(creative.status).toBe('pending_approval');
    url = `${inject('baseUrl')}/v1/networks/${n}/creatives/${creative.id}/audio`;
    token = admin;
    sizes = { mp3: creative.formats[0]!.size_bytes, wav: creative.formats[1]!.size_bytes };
  }, 200_000);

  const get = (query = '', headers: Record<string, string> = {}) => fetchAudio(`${url}${query}`, token, headers);
  const isMp3 = (b: Buffer) => b[0] === 0xff && (b[1]! & 0xe0) === 0xe0;
  const isWav = (b: Buffer) => b.toString('ascii', 0, 4) === 'RIFF';

  it('serves MP3 by default (no Accept, */*, audio/*), and says the answer varies by Accept', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'audio/*' }] as Array<Record<string, string>>) {
      const res = await get('', headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      expect(isMp3(res.bytes)).toBe(true);
      expect(res.bytes.length).toBe(sizes.mp3);
      expect(res.headers.get('vary')).toBe('Accept');
    }
  });

  it('serves WAV for Accept: audio/wav (or its aliases) and honours q-values', async () => {
    for (const accept of ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg;q=0.4, audio/wav;q=0.9', 'application/json, audio/wav']) {
      const res = await get('', { accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type'), accept).toBe('audio/wav');
      expect(isWav(res.bytes)).toBe(true);
      expect(res.bytes.length).toBe(sizes.wav);
    }
    const mp3 = await get('', { accept: 'audio/wav;q=0.2, audio/mpeg' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
  });

  it('?format= picks the rendition, over Accept', async () => {
    const wav = await get('?format=wav', { accept: 'audio/mpeg' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(isWav(wav.bytes)).toBe(true);
    const mp3 = await get('?format=mp3', { accept: 'audio/wav' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(mp3.headers.get('content-disposition')).toMatch(/filename="crv_\w+\.mp3"/);
  });

  it('answers an Accept it cannot satisfy with 406 in the problem envelope, naming what it has', async () => {
    for (const accept of ['audio/ogg', 'application/json', 'audio/wav;q=0, audio/mpeg;q=0']) {
      const res = await get('', { accept });
      expect(res.status, accept).toBe(406);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = JSON.parse(res.bytes.toString()) as Problem;
      expect(Object.keys(body).sort()).toEqual(['detail', 'status', 'title', 'type']);
      expect(body).toMatchObject({ status: 406, title: 'Not acceptable' });
      expect(body.type).toMatch(/\/errors\/not-acceptable$/);
      expect(body.detail).toContain('audio/mpeg');
      expect(body.detail).toContain('audio/wav');
    }
    const unknown = await get('?format=flac');
    expect(unknown.status).toBe(400);
  });

  it('serves byte ranges of either rendition (206), and 416 past its end', async () => {
    for (const [format, size] of [
      ['mp3', sizes.mp3],
      ['wav', sizes.wav],
    ] as const) {
      const whole = await get(`?format=${format}`);
      const part = await get(`?format=${format}`, { range: 'bytes=100-1099' });
      expect(part.status, format).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${size}`);
      expect(part.bytes.equals(whole.bytes.subarray(100, 1100))).toBe(true);
      const tail = await get(`?format=${format}`, { range: 'bytes=-500' });
      expect(tail.status).toBe(206);
      expect(tail.bytes.equals(whole.bytes.subarray(size - 500))).toBe(true);
      const past = await get(`?format=${format}`, { range: `bytes=${size}-` });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    }
    const byAccept = await get('', { accept: 'audio/wav', range: 'bytes=0-43' });
    expect(byAccept.status).toBe(206);
    expect(byAccept.headers.get('content-type')).toBe('audio/wav');
    expect(isWav(byAccept.bytes)).toBe(true);
  });
});

describe('audio stored before mastering existed', () => {
  // Before mastering, and before voice consent: made under no consent, `ready` then and `approved` since (migration 0022).
  it('is listed as the one format it is in, without measurements, and served only in it', async () => {
    const network = await createNetworkRow();
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const { campaign, podcast } = await adInventory(network.id);
    const offer = await offerRow(network.id, { campaign, podcast }, { status: 'accepted', decidedAt: new Date() });
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(3000, 1)]);
    const creative = await creativeRow(network.id, offer, {
      script: 'Old.',
      voice: 'warm',
      status: 'approved',
      mimeType: 'audio/wav',
      durationMs: 1000,
      sizeBytes: wav.length,
      readyAt: new Date(),
    });
    await database().insert(creativeAudio).values({ creativeId: creative.id, networkId: network.id, format: 'wav', bytes: wav });

    const path = `/networks/${network.id}/creatives/${creative.id}`;
    const res = await api<CreativeAudioFields>('GET', path, { token: reader.token });
    expect(res.body).toMatchObject({ loudness_lufs: null, true_peak_dbtp: null, sample_rate: null });
    expect(res.body.formats).toEqual([
      {
        format: 'wav',
        mime_type: 'audio/wav',
        size_bytes: wav.length,
        loudness_lufs: null,
        true_peak_dbtp: null,
        audio_url: expect.stringMatching(/\/audio\?format=wav$/),
      },
    ]);
    const url = `${inject('baseUrl')}/v1${path}/audio`;
    const whole = await fetchAudio(url, reader.token);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(whole.bytes.equals(wav)).toBe(true);
    expect((await fetchAudio(`${url}?format=mp3`, reader.token)).status).toBe(406);
    expect((await fetchAudio(url, reader.token, { accept: 'audio/mpeg' })).status).toBe(406);
  });
});
