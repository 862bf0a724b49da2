import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ffmpegBinary } from '@/server/synth/ffmpeg';
import { measureLoudness } from '@/server/synth/master';
import { integratedLoudness, truePeak } from '@/tests/support/bs1770';
import { pcmWav, speechLike } from '@/tests/support/signals';

/**
 * The tests' own loudness meter (tests/support/bs1770.ts) against the reference points of
 * ITU-R BS.1770-4 and EBU Tech 3341, before any test trusts it to judge the mastered creatives.
 */
const sine = (rate: number, seconds: number, hz: number, amplitude: number, phase = 0) =>
  Float64Array.from({ length: Math.round(rate * seconds) }, (_, n) => amplitude * Math.sin((2 * Math.PI * hz * n) / rate + phase));
const dB = (db: number) => Math.pow(10, db / 20);

describe('the reference BS.1770 meter of the tests', () => {
  for (const rate of [48_000, 44_100]) {
    it(`reads a full-scale 997 Hz sine in one channel as −3.01 LKFS (BS.1770-4 § 2.3), at ${rate} Hz`, () => {
      expect(integratedLoudness(sine(rate, 5, 997, 1), rate)).toBeCloseTo(-3.01, 1);
    });
  }

  it('reads a 1 kHz sine at −20 dBFS as −23.0 LUFS, and gates out silence around it', () => {
    const rate = 44_100;
    const tone = sine(rate, 10, 1000, dB(-20));
    expect(integratedLoudness(tone, rate)).toBeCloseTo(-23.01, 1);
    const padded = new Float64Array(tone.length + rate * 20);
    padded.set(tone, rate * 10);
    // Ungated, a third of the time at −23 would read −27.8; only the blocks straddling the edges count.
    expect(Math.abs(integratedLoudness(padded, rate) - -23.01)).toBeLessThan(0.2);
  });

  it('gates quiet passages relative to the programme (EBU Tech 3341 case 3, in one channel)', () => {
    const rate = 48_000;
    const parts = [sine(rate, 10, 1000, dB(-36)), sine(rate, 60, 1000, dB(-23)), sine(rate, 10, 1000, dB(-36))];
    const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) all.set(p, (at += p.length) - p.length);
    // −23 dBFS in one channel is −26.0 LUFS; the −36 dBFS parts fall under the relative gate.
    expect(integratedLoudness(all, rate)).toBeCloseTo(-26.01, 1);
  });

  it('finds the true peak between samples: a quarter-rate sine sampled 45° off its crest (EBU Tech 3341, +0.2/−0.4 dB)', () => {
    const rate = 48_000;
    const x = sine(rate, 1, rate / 4, dB(-6), Math.PI / 4);
    const samplePeak = 20 * Math.log10(Math.max(...x.map(Math.abs)));
    expect(samplePeak).toBeCloseTo(-9.03, 1); // what a sample-peak meter would say
    const tp = truePeak(x);
    expect(tp).toBeGreaterThan(-6.4);
    expect(tp).toBeLessThan(-5.8);
  });

  it('agrees with ffmpeg’s ebur128 within 0.2 LU and 0.3 dB on speech-like sound', async () => {
    const rate = 44_100;
    const x = speechLike(12_000, rate, 0.9);
    const dir = mkdtempSync(path.join(tmpdir(), 'bs1770-'));
    try {
      const file = path.join(dir, 'speech.wav');
      writeFileSync(file, pcmWav(x, rate));
      const { path: ffmpeg } = await ffmpegBinary();
      const [theirs] = await measureLoudness(ffmpeg, [{ path: file }]);
      expect(Math.abs(integratedLoudness(x, rate) - theirs!.integratedLufs!)).toBeLessThan(0.2);
      expect(Math.abs(truePeak(x) - theirs!.truePeakDbtp!)).toBeLessThan(0.3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
