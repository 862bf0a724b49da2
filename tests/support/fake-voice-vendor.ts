import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ffmpegBinary } from '@/server/synth/ffmpeg';
import { pcmWav, speechLike } from './signals';

export type VendorMode = 'ok' | 'fail' | 'hang' | 'reject';

/** A small valid WAV: 16-bit mono PCM, a 440 Hz tone. */
export function toneWav(ms = 600, sampleRate = 16_000): Buffer {
  const samples = Float32Array.from(
    { length: Math.round((sampleRate * ms) / 1000) },
    (_, i) => Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 0.366,
  );
  return pcmWav(samples, sampleRate);
}

/** How long the fake vendor speaks a text: about 65 ms a character, as a voice reads. */
export const spokenMs = (text: string) => Math.max(600, text.length * 65);

/**
 * What the vendor answers by default: MP3 at 44.1 kHz, 128 kbit/s (its `mp3_44100_128`), as long as
 * the text takes to say, and hot — peaking at full scale, about −11 LUFS — so that mastering has
 * real work to do. Encoded by ffmpeg: the outside world's encoder, not under test.
 */
async function vendorMp3(text: string): Promise<Buffer> {
  const { path } = await ffmpegBinary();
  const wav = pcmWav(speechLike(spokenMs(text), 44_100, 0.999), 44_100);
  return new Promise((resolve, reject) => {
    const child = execFile(
      path,
      ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin!.end(wav);
  });
}

/**
 * A real HTTP server imitating the voice vendor (ElevenLabs-style
 * POST /v1/text-to-speech/{voice_id}): the outside world, faked as a server. It answers at once,
 * except what a test holds: `POST /__hold` (the test's, not the service's) with a text in its body
 * holds every later synthesis whose text contains it, until `POST /__release` with the same text
 * answers them (its body says how many) or `holdMs` (default 30 s) has passed — so a test can see
 * a creative generating for as long as it needs, and no other test waits. `setMode` decides how it
 * answers every request, or (with `forText`) only those whose text contains that: tests that run at
 * once each give the vendor a mode of their own. `format`: MP3 speech as long as the text (default,
 * as the vendor answers) or a short WAV tone. `port`: a fixed one (0: any free one).
 */
export async function startFakeVoiceVendor(options: { holdMs?: number; format?: 'mp3' | 'wav'; port?: number } = {}) {
  let mode: VendorMode = 'ok';
  /** Modes of their own for the texts that contain a key (`setMode(next, forText)`), before `mode`. */
  const modesByText = new Map<string, VendorMode>();
  const requests: Array<{ path: string; body: string }> = [];
  const hanging = new Set<IncomingMessage>();
  /** The held texts, each with the answers waiting on it. */
  const holds = new Map<string, Set<() => void>>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && (req.url === '/__hold' || req.url === '/__release')) {
        const waiting = holds.get(body);
        holds.delete(body);
        if (req.url === '/__hold') holds.set(body, waiting ?? new Set());
        const released = [...(req.url === '/__release' ? (waiting ?? []) : [])];
        for (const answerNow of released) answerNow();
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(String(released.length));
      }
      requests.push({ path: req.url ?? '', body });
      const text = (() => {
        try {
          return String((JSON.parse(body) as { text?: unknown }).text ?? '');
        } catch {
          return '';
        }
      })();
      const answering = [...modesByText].find(([key]) => text.includes(key))?.[1] ?? mode;
      if (answering === 'hang') {
        hanging.add(req);
        return;
      }
      if (answering === 'fail') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"overloaded"}');
      if (answering === 'reject') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"detail":"bad text"}');
      const audio = options.format === 'wav' ? Promise.resolve(toneWav()) : vendorMp3(text);
      const type = options.format === 'wav' ? 'audio/wav' : 'audio/mpeg';
      const answer = () =>
        audio.then(
          (bytes) => res.writeHead(200, { 'content-type': type, 'content-length': bytes.length }).end(bytes),
          () => res.writeHead(500).end(),
        );
      const waiting = [...holds].find(([held]) => held !== '' && text.includes(held))?.[1];
      if (!waiting) return void answer();
      const answerNow = () => {
        clearTimeout(timer);
        waiting.delete(answerNow);
        void answer();
      };
      const timer = setTimeout(answerNow, options.holdMs ?? 30_000);
      waiting.add(answerNow);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** How the vendor answers from now on: every request, or only those whose text contains `forText`. */
    setMode(next: VendorMode, forText?: string) {
      if (forText === undefined) mode = next;
      else modesByText.set(forText, next);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
