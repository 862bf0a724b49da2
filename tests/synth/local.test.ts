import { describe, it, expect } from 'vitest';
import { parseWav } from '@/server/synth/audio';
import { localProvider } from '@/server/synth/local';
import { synthesisProvider } from '@/server/synth/index';
import { SynthesisError, VOICE_PRESETS } from '@/server/synth/types';

const SENTENCE = 'Welcome back to the show. Today we talk about gardening in small spaces.';

function rms16(buf: Buffer, offset: number, length: number): number {
  let sum = 0;
  let n = 0;
  for (let i = offset; i + 1 < offset + length; i += 2) {
    const s = buf.readInt16LE(i) / 32768;
    sum += s * s;
    n++;
  }
  return n === 0 ? 0 : Math.sqrt(sum / n);
}

describe('local synthesis provider', () => {
  const provider = localProvider();

  it('is the default provider', () => {
    expect(synthesisProvider({}).name).toBe('local');
  });

  it('produces a valid, non-silent PCM WAV for a sentence', async () => {
    const result = await provider.synthesize({ text: SENTENCE, voice: 'default' });
    const buf = result.audio;
    expect(result.mimeType).toBe('audio/wav');
    expect(buf.toString('ascii', 0, 4)).toBe('RIFF');
    expect(buf.toString('ascii', 8, 12)).toBe('WAVE');
    expect(buf.readUInt32LE(4)).toBe(buf.length - 8); // RIFF size

    const wav = parseWav(buf);
    expect(wav.audioFormat).toBe(1); // PCM
    expect(wav.sampleRate).toBeGreaterThan(8000);
    expect(wav.bitsPerSample).toBe(16);
    expect(wav.byteRate).toBe(wav.sampleRate * wav.channels * (wav.bitsPerSample / 8));
    // The declared data size matches what is in the file.
    expect(buf.readUInt32LE(wav.dataOffset - 4)).toBe(wav.dataLength);
    expect(wav.dataOffset + wav.dataLength).toBe(buf.length);

    expect(result.durationMs).toBe(Math.round((wav.dataLength / wav.byteRate) * 1000));
    expect(result.durationMs).toBeGreaterThan(300);
    expect(rms16(buf, wav.dataOffset, wav.dataLength)).toBeGreaterThan(0.01);
  });

  it('makes every preset sound different', async () => {
    const results = await Promise.all(VOICE_PRESETS.map((voice) => provider.synthesize({ text: SENTENCE, voice })));
    const fingerprints = new Set(results.map((r) => r.audio.toString('base64')));
    expect(fingerprints.size).toBe(VOICE_PRESETS.length);
    const byVoice = Object.fromEntries(VOICE_PRESETS.map((v, i) => [v, results[i]!]));
    expect(byVoice.fast!.durationMs).toBeLessThan(byVoice.calm!.durationMs);
    for (const r of results) {
      const wav = parseWav(r.audio);
      expect(rms16(r.audio, wav.dataOffset, wav.dataLength)).toBeGreaterThan(0.01);
    }
  });

  it("keeps working past the engine's per-instance limit (80 calls), also when called concurrently", async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => provider.synthesize({ text: `Number ${i}.`, voice: VOICE_PRESETS[i % VOICE_PRESETS.length]! })),
    );
    for (const r of results) {
      const wav = parseWav(r.audio);
      expect(r.durationMs).toBeGreaterThan(200);
      expect(rms16(r.audio, wav.dataOffset, wav.dataLength)).toBeGreaterThan(0.01);
    }
  }, 60_000);

  it('is cancelled by an aborted signal', async () => {
    const err = await provider.synthesize({ text: SENTENCE, voice: 'default' }, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SynthesisError);
    expect((err as SynthesisError).code).toBe('cancelled');
    // The engine still works afterwards.
    expect((await provider.synthesize({ text: 'Still here.', voice: 'calm' })).durationMs).toBeGreaterThan(300);
  });

  it('speaks text that starts with a dash instead of reading it as an option', async () => {
    const result = await provider.synthesize({ text: '--help me', voice: 'default' });
    expect(result.durationMs).toBeGreaterThan(200);
  });

  it('refuses text it has nothing to speak for (symbols of scripts it has no voice for) as rejected, for good', async () => {
    // Found by the fuzz (FUZZ_SEED=1790575937): eSpeak ends without audio, and a preview answered 502 "retry later".
    await expect(provider.synthesize({ text: 'ഭ𝆺𝅥𝅮Ꭶ 䳸꣸-$𝅗𝅥', voice: 'default' })).rejects.toMatchObject({
      name: 'SynthesisError',
      retryable: false,
      code: 'rejected',
    });
    // The engine is still there for the next call.
    expect((await provider.synthesize({ text: SENTENCE, voice: 'default' })).durationMs).toBeGreaterThan(200);
  });

  it('refuses an unknown preset and empty text with permanent errors', async () => {
    await expect(provider.synthesize({ text: SENTENCE, voice: 'robot' })).rejects.toMatchObject({
      name: 'SynthesisError',
      retryable: false,
      code: 'voice_unavailable',
    });
    const err = await provider.synthesize({ text: '   ', voice: 'default' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SynthesisError);
    expect((err as SynthesisError).retryable).toBe(false);
  });
});
