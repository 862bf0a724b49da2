import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type VendorMode = 'ok' | 'fail' | 'hang' | 'reject';

/** A small valid WAV: 16-bit mono PCM, a 440 Hz tone. */
export function toneWav(ms = 600, sampleRate = 16_000): Buffer {
  const samples = Math.round((sampleRate * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 12_000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * A real HTTP server imitating the voice vendor (ElevenLabs-style
 * POST /v1/text-to-speech/{voice_id}): the outside world, faked as a server.
 * `delayMs`: how long each synthesis takes, as a real vendor takes a second or two.
 */
export async function startFakeVoiceVendor(options: { delayMs?: number } = {}) {
  let mode: VendorMode = 'ok';
  const requests: Array<{ path: string; body: string }> = [];
  const hanging = new Set<IncomingMessage>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body });
      if (mode === 'hang') {
        hanging.add(req);
        return;
      }
      if (mode === 'fail') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"overloaded"}');
      if (mode === 'reject') return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"detail":"bad text"}');
      const wav = toneWav();
      const answer = () => res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(wav);
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(next: VendorMode) {
      mode = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
