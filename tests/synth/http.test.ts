import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, it, expect } from 'vitest';
import { parseMp3 } from '@/server/synth/audio';
import { DEFAULT_VOICE_MAP } from '@/server/synth/http';
import { synthesisProvider } from '@/server/synth/index';
import { SynthesisError, type SynthesisProvider } from '@/server/synth/types';

/** N constant-bit-rate MPEG-1 Layer III frames: 128 kbps, 44.1 kHz, stereo, no padding (417 bytes each). */
function fakeMp3(frames: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x04]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** A tiny valid 16-bit mono PCM WAV of `samples` samples at 16 kHz. */
function fakeWav(samples: number): Buffer {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin(i / 5) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, call: number) => void;

const API_KEY = 'test-key-123';
const VENDOR_NAMES = /elevenlabs|xi-|127\.0\.0\.1|localhost|http:|https:/i;

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res, seen.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  handler = (_req, res) => res.writeHead(500).end();
});

function provider(extra: Record<string, string> = {}): SynthesisProvider {
  return synthesisProvider({
    SYNTH_PROVIDER: 'http',
    SYNTH_BASE_URL: baseUrl,
    SYNTH_API_KEY: API_KEY,
    SYNTH_RETRY_BASE_MS: '20',
    SYNTH_TIMEOUT_MS: '5000',
    ...extra,
  });
}

async function failure(p: Promise<unknown>): Promise<SynthesisError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SynthesisError);
  return err as SynthesisError;
}

function expectClientSafe(err: SynthesisError) {
  expect(err.clientReason.length).toBeGreaterThan(10);
  expect(err.clientReason).not.toMatch(VENDOR_NAMES);
  for (const id of Object.values(DEFAULT_VOICE_MAP)) expect(err.clientReason).not.toContain(id);
  expect(err.clientReason).not.toContain(API_KEY);
}

describe('http synthesis provider', () => {
  it('requires SYNTH_BASE_URL', () => {
    expect(() => synthesisProvider({ SYNTH_PROVIDER: 'http' })).toThrow(/SYNTH_BASE_URL/);
    expect(() => synthesisProvider({ SYNTH_PROVIDER: 'nope' })).toThrow(/SYNTH_PROVIDER/);
  });

  it('posts the script to the mapped voice and returns the audio (MP3)', async () => {
    const mp3 = fakeMp3(24);
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(mp3);
    const result = await provider({ SYNTH_MODEL_ID: 'model-x' }).synthesize({ text: 'Hello listeners!', voice: 'warm' });

    expect(result.mimeType).toBe('audio/mpeg');
    expect(result.audio.equals(mp3)).toBe(true);
    // 24 frames x 417 bytes x 8 bits / 128 kbps ≈ 625.5 ms (24 x 1152 / 44100 = 627 ms exactly).
    expect(result.durationMs).toBe(Math.round((mp3.length * 8) / 128));
    expect(Math.abs(result.durationMs - 627)).toBeLessThan(5);

    expect(seen).toHaveLength(1);
    const call = seen[0]!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe(`/v1/text-to-speech/${DEFAULT_VOICE_MAP.warm}`);
    expect(call.headers['xi-api-key']).toBe(API_KEY);
    expect(call.headers.accept).toBe('audio/mpeg');
    expect(call.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(call.body)).toEqual({ text: 'Hello listeners!', model_id: 'model-x' });
  });

  it('uses SYNTH_VOICE_MAP and reads a WAV answer', async () => {
    const wav = fakeWav(8000); // 0.5 s at 16 kHz
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
    const result = await provider({ SYNTH_VOICE_MAP: JSON.stringify({ deep: 'custom-voice-9' }) }).synthesize({ text: 'Deep.', voice: 'deep' });
    expect(result).toMatchObject({ mimeType: 'audio/wav', durationMs: 500 });
    expect(seen[0]!.url).toBe('/v1/text-to-speech/custom-voice-9');
    expect(JSON.parse(seen[0]!.body)).toEqual({ text: 'Deep.' });
  });

  it('retries 500 twice, then succeeds on the third call', async () => {
    handler = (_req, res, call) => (call < 3 ? res.writeHead(500).end('boom') : res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(fakeMp3(3)));
    const result = await provider().synthesize({ text: 'Retry me.', voice: 'default' });
    expect(result.audio.length).toBe(3 * 417);
    expect(seen).toHaveLength(3);
  });

  it('waits for Retry-After on 429, then succeeds', async () => {
    handler = (_req, res, call) =>
      call === 1 ? res.writeHead(429, { 'retry-after': '1' }).end() : res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(fakeMp3(2));
    const started = Date.now();
    const result = await provider().synthesize({ text: 'Busy?', voice: 'bright' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.audio.length).toBe(2 * 417);
    expect(seen).toHaveLength(2);
  });

  it('gives up at once when Retry-After is longer than allowed, as retryable', async () => {
    handler = (_req, res) => res.writeHead(429, { 'retry-after': '120' }).end();
    const err = await failure(provider().synthesize({ text: 'Busy?', voice: 'bright' }));
    expect(err).toMatchObject({ retryable: true, code: 'rate_limited', attempts: 1 });
    expectClientSafe(err);
  });

  it('always 503 → retryable SynthesisError after 1 + SYNTH_MAX_RETRIES calls, client-safe reason', async () => {
    handler = (_req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"ElevenLabs overloaded"}');
    const err = await failure(provider().synthesize({ text: 'Down?', voice: 'calm' }));
    expect(err).toMatchObject({ retryable: true, code: 'unavailable', status: 503, attempts: 3 });
    expect(seen).toHaveLength(3);
    expectClientSafe(err);

    seen = [];
    await failure(provider({ SYNTH_MAX_RETRIES: '0' }).synthesize({ text: 'Down?', voice: 'calm' }));
    expect(seen).toHaveLength(1);
  });

  it.each([400, 401, 422])('%i → permanent SynthesisError, no retries', async (status) => {
    handler = (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end('{"detail":"nope"}');
    const err = await failure(provider().synthesize({ text: 'Bad.', voice: 'default' }));
    expect(err).toMatchObject({ retryable: false, status });
    expect(seen).toHaveLength(1);
    expectClientSafe(err);
  });

  it('does not follow redirects (the API key must not travel elsewhere)', async () => {
    handler = (_req, res, call) =>
      call === 1 ? res.writeHead(307, { location: '/elsewhere' }).end() : res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(fakeMp3(2));
    const err = await failure(provider().synthesize({ text: 'Hop.', voice: 'default' }));
    expect(err).toMatchObject({ retryable: false, status: 307 });
    expect(seen).toHaveLength(1);
  });

  it('a 200 that is not audio → permanent invalid-audio error', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'audio/mpeg' }).end('this is not audio at all');
    const err = await failure(provider().synthesize({ text: 'Hm.', voice: 'default' }));
    expect(err).toMatchObject({ retryable: false, code: 'invalid_audio' });
    expect(seen).toHaveLength(1);
    expectClientSafe(err);
  });

  it('a server that hangs → retryable time-out error', async () => {
    handler = () => {
      /* never answer */
    };
    const started = Date.now();
    const err = await failure(provider({ SYNTH_TIMEOUT_MS: '300', SYNTH_MAX_RETRIES: '1' }).synthesize({ text: 'Hello?', voice: 'default' }));
    const elapsed = Date.now() - started;
    expect(err).toMatchObject({ retryable: true, code: 'timeout', attempts: 2 });
    expect(seen).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(3000);
    expectClientSafe(err);
  });

  it('a refused connection → retryable error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await failure(
      synthesisProvider({ SYNTH_PROVIDER: 'http', SYNTH_BASE_URL: `http://127.0.0.1:${port}`, SYNTH_RETRY_BASE_MS: '10' }).synthesize({
        text: 'Hi',
        voice: 'default',
      }),
    );
    expect(err).toMatchObject({ retryable: true, code: 'unavailable', attempts: 3 });
    expectClientSafe(err);
  });

  it('stops when the caller aborts', async () => {
    handler = () => {
      /* never answer */
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(provider().synthesize({ text: 'Hello?', voice: 'default' }, { signal: controller.signal }));
    expect(err.code).toBe('cancelled');
    expect(seen).toHaveLength(1);
  });
});

describe('MP3 duration estimate', () => {
  it('uses the Xing frame count when present and skips an ID3v2 tag', () => {
    const id3 = Buffer.alloc(20);
    id3.write('ID3', 0, 'latin1');
    id3[9] = 10; // tag body of 10 bytes
    const first = Buffer.alloc(417);
    first.set([0xff, 0xfb, 0x90, 0x04]);
    first.write('Xing', 4 + 32, 'latin1');
    first.writeUInt32BE(1, 4 + 32 + 4);
    first.writeUInt32BE(1000, 4 + 32 + 8);
    const info = parseMp3(Buffer.concat([id3, first, fakeMp3(2)]));
    expect(info.firstFrameOffset).toBe(20);
    expect(info.xingFrames).toBe(1000);
    expect(info.durationMs).toBe(Math.round((1000 * 1152 * 1000) / 44100));
  });
});
