import { expect } from 'vitest';
import { MPEGDecoder } from 'mpg123-decoder';
import { integratedLoudness, truePeak } from './bs1770';

/**
 * Decoding and judging the audio the service serves, with code of the tests' own: WAV read here,
 * MP3 decoded by libmpg123 (the `mpg123-decoder` package) — not ffmpeg, which made the files — and
 * loudness measured by tests/support/bs1770.ts, not by ffmpeg's meter.
 */

export interface Pcm {
  /** The first channel, −1…1. */
  samples: Float32Array;
  channels: number;
  sampleRate: number;
}

/** 16-bit PCM WAV, read from its chunks. */
export function decodeWav(buf: Buffer): Pcm & { bitsPerSample: number } {
  expect(buf.toString('ascii', 0, 4)).toBe('RIFF');
  expect(buf.toString('ascii', 8, 12)).toBe('WAVE');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bitsPerSample: number; audioFormat: number } | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        audioFormat: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bitsPerSample: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      expect(format).toMatchObject({ audioFormat: 1, bitsPerSample: 16 });
      const frames = Math.floor(Math.min(size, buf.length - body) / (2 * format!.channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = buf.readInt16LE(body + i * 2 * format!.channels) / 32768;
      return { samples, channels: format!.channels, sampleRate: format!.sampleRate, bitsPerSample: format!.bitsPerSample };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** MP3 decoded by libmpg123 (gapless: the encoder's delay and padding removed). */
export async function decodeMp3(buf: Buffer): Promise<Pcm> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const out = decoder.decode(new Uint8Array(buf));
    expect(out.errors).toEqual([]);
    return { samples: out.channelData[0]!.slice(0, out.samplesDecoded), channels: out.channelData.length, sampleRate: out.sampleRate };
  } finally {
    decoder.free();
  }
}

/** The bit rates (kbit/s) in the headers of the MPEG-1 Layer III frames of `buf` (ISO 11172-3 § 2.4.2.3). */
export function mp3FrameBitrates(buf: Buffer): number[] {
  const kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const rates = [44_100, 48_000, 32_000];
  const found: number[] = [];
  for (let i = 0; i + 4 <= buf.length;) {
    const h = buf.readUInt32BE(i);
    const sync = h >>> 21 === 0x7ff && ((h >>> 19) & 3) === 3 && ((h >>> 17) & 3) === 1; // MPEG-1, Layer III
    const bitrate = kbps[(h >>> 12) & 15];
    const rate = rates[(h >>> 10) & 3];
    if (!sync || !bitrate || !rate) {
      i++;
      continue;
    }
    found.push(bitrate);
    i += Math.floor((144_000 * bitrate) / rate) + ((h >>> 9) & 1);
  }
  return found;
}

/** What docs/ad-flow.md promises of every creative: −16 ± 1 LUFS, true peak ≤ −1 dBTP, 44.1 kHz. */
export function expectBroadcastReady(pcm: Pcm): { lufs: number; dbtp: number; durationMs: number } {
  expect(pcm.sampleRate).toBe(44_100);
  const lufs = integratedLoudness(pcm.samples, pcm.sampleRate);
  const dbtp = truePeak(pcm.samples);
  expect(lufs).toBeGreaterThanOrEqual(-17);
  expect(lufs).toBeLessThanOrEqual(-15);
  expect(dbtp).toBeLessThanOrEqual(-1);
  return { lufs, dbtp, durationMs: (pcm.samples.length / pcm.sampleRate) * 1000 };
}

/** A script of `length` characters (ad copy, sentence after sentence): 2,000 is the longest a campaign takes. */
export function adScript(length: number): string {
  const sentences = [
    'Sleep better tonight with Acme mattresses.',
    'Our foam adapts to you, night after night, and keeps you cool until morning.',
    'Use code POD at checkout for twenty percent off your first order.',
    'Free delivery, free returns, and a hundred nights to decide.',
    'Acme: rest, reimagined.',
  ];
  let text = '';
  for (let i = 0; text.length < length; i++) text += `${sentences[i % sentences.length]} `;
  return text.slice(0, length).trimEnd().padEnd(length, '.');
}

export interface CreativeAudioFields {
  id: string;
  network_id: string;
  status: string;
  mime_type: string | null;
  duration_ms: number | null;
  size_bytes: number | null;
  sample_rate: number | null;
  loudness_lufs: number | null;
  true_peak_dbtp: number | null;
  formats: Array<{
    format: string;
    mime_type: string;
    size_bytes: number;
    loudness_lufs: number | null;
    true_peak_dbtp: number | null;
    audio_url: string;
  }>;
  audio_url: string | null;
}

export async function fetchAudio(url: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/**
 * Everything docs/ad-flow.md promises of a synthesized creative, checked on the bytes the API
 * serves: both renditions download, decode (independently), sit at −16 ± 1 LUFS with true peaks
 * ≤ −1 dBTP at 44.1 kHz, the MP3 at ≥ 128 kbit/s; and the numbers the resource reports agree with
 * ours. Synthesis leaves a creative pending the host's approval (`status` says otherwise), whose
 * audio only an administrator's `token` plays.
 */
export async function expectMasteredCreative(
  creative: CreativeAudioFields,
  { baseUrl, token, status = 'pending_approval' }: { baseUrl: string; token: string; status?: 'pending_approval' | 'approved' },
) {
  expect(creative).toMatchObject({ status, mime_type: 'audio/mpeg', sample_rate: 44_100 });
  expect(creative.formats.map((f) => [f.format, f.mime_type])).toEqual([
    ['mp3', 'audio/mpeg'],
    ['wav', 'audio/wav'],
  ]);
  const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, baseUrl);

  const mp3 = await fetchAudio(local(creative.formats[0]!.audio_url), token);
  expect(mp3.status).toBe(200);
  expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
  expect(mp3.bytes.length).toBe(creative.formats[0]!.size_bytes);
  expect(mp3.bytes.length).toBe(creative.size_bytes);
  const bitrates = mp3FrameBitrates(mp3.bytes);
  expect(bitrates.length).toBeGreaterThan(10);
  expect(Math.min(...bitrates)).toBeGreaterThanOrEqual(128);
  const mp3Pcm = await decodeMp3(mp3.bytes);
  const mp3Measured = expectBroadcastReady(mp3Pcm);
  // The whole file, decoded, is at least 128 kbit/s on average too.
  expect((mp3.bytes.length * 8) / mp3Measured.durationMs).toBeGreaterThanOrEqual(127);

  const wav = await fetchAudio(local(creative.formats[1]!.audio_url), token);
  expect(wav.status).toBe(200);
  expect(wav.headers.get('content-type')).toBe('audio/wav');
  expect(wav.bytes.length).toBe(creative.formats[1]!.size_bytes);
  const wavPcm = decodeWav(wav.bytes);
  expect(wavPcm).toMatchObject({ channels: 1, bitsPerSample: 16 });
  const wavMeasured = expectBroadcastReady(wavPcm);

  // What the resource says was measured is what an independent meter finds.
  expect(Math.abs(creative.loudness_lufs! - mp3Measured.lufs)).toBeLessThan(0.5);
  expect(Math.abs(creative.formats[1]!.loudness_lufs! - wavMeasured.lufs)).toBeLessThan(0.5);
  expect(creative.true_peak_dbtp!).toBeLessThanOrEqual(-1);
  expect(creative.formats[1]!.true_peak_dbtp!).toBeLessThanOrEqual(-1);
  expect(Math.abs(creative.duration_ms! - wavMeasured.durationMs)).toBeLessThan(20);
  expect(Math.abs(mp3Measured.durationMs - wavMeasured.durationMs)).toBeLessThan(60);
  return { mp3: mp3Measured, wav: wavMeasured, mp3Bytes: mp3.bytes, wavBytes: wav.bytes };
}
