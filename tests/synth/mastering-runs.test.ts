import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ffmpegBinary } from '@/server/synth/ffmpeg';
import { localProvider } from '@/server/synth/local';
import { loudnessPerDb, masterAudio, measureLoudness, nearTarget } from '@/server/synth/master';
import { adScript, decodeMp3, decodeWav, expectBroadcastReady } from '@/tests/support/loudness';
import { pcmWav, speechLike } from '@/tests/support/signals';

/**
 * Every ffmpeg run is a process start, and Debian's ffmpeg spends ~0.15 s of each loading its
 * libraries (docs/PERFORMANCE.md, "Creative overhead: ffmpeg starts"): a creative that took
 * twelve runs waited ~2 s for them. So mastering measures what it can in one run. These tests
 * count the runs through a wrapper that logs each one and then runs the real ffmpeg (this file's
 * process only: FFMPEG_PATH).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'mastering-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const real = (await ffmpegBinary({ ...process.env })).path;
const runLog = path.join(dir, 'runs.log');
const wrapper = path.join(dir, 'ffmpeg');
writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${runLog}'\nexec '${real}' "$@"\n`);
chmodSync(wrapper, 0o755);
process.env.FFMPEG_PATH = wrapper;

/** The arguments of each run that did audio work (not the once-per-process check of the binary's filters). */
const runs = () =>
  readFileSync(runLog, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('-hide_banner -nostdin -nostats '))
    .map((line) => line.slice('-hide_banner -nostdin -nostats '.length));
const renders = (lines: string[]) => lines.filter((line) => line.startsWith('-y '));
const tone = (seconds: number, rate: number, amplitude: number) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, n) => amplitude * Math.sin((2 * Math.PI * 440 * n) / rate));

beforeEach(() => writeFileSync(runLog, ''));

describe('measuring loudness', () => {
  it('measures several files in one run, each as it measures alone', async () => {
    const loud = path.join(dir, 'loud.wav');
    const quiet = path.join(dir, 'quiet.wav');
    writeFileSync(loud, pcmWav(speechLike(3_000, 44_100, 0.8), 44_100));
    writeFileSync(quiet, pcmWav(speechLike(2_000, 48_000, 0.05), 48_000, 2));
    const together = await measureLoudness(wrapper, [{ path: loud }, { path: quiet }]);
    expect(runs()).toHaveLength(1);
    const alone = [...(await measureLoudness(wrapper, [{ path: loud }])), ...(await measureLoudness(wrapper, [{ path: quiet }]))];
    expect(together).toEqual(alone);
    // Each answer is its own file's: ~24 dB apart, as the peaks are.
    expect(together[0]!.integratedLufs! - together[1]!.integratedLufs!).toBeGreaterThan(20);
  });

  it('measures a clip shorter than one 400 ms block looped: at once when its length is given, else after a plain run finds nothing', async () => {
    const short = path.join(dir, 'short.wav');
    writeFileSync(short, pcmWav(tone(0.25, 8_000, 0.25), 8_000));
    const [known] = await measureLoudness(wrapper, [{ path: short, durationMs: 250 }]);
    expect(runs()).toEqual([expect.stringMatching(/^-stream_loop 3 -i /)]);
    writeFileSync(runLog, '');
    const [unknown] = await measureLoudness(wrapper, [{ path: short }]);
    expect(runs()).toEqual([expect.stringMatching(/^-i /), expect.stringMatching(/^-stream_loop 3 -i /)]);
    expect(known!.integratedLufs).toBeDefined();
    expect(unknown).toEqual(known);
  });
});

describe('mastering', () => {
  it('accepts a rendition within ±0.3 LU of −16 LUFS as ffmpeg prints it (tenths), the edges included', () => {
    expect([-16.3, -16.2, -16, -15.8, -15.7].map(nearTarget)).toEqual([true, true, true, true, true]);
    expect([-16.4, -15.6, -Infinity].map(nearTarget)).toEqual([false, false, false]);
  });

  it('takes three runs for a speech clip (the input, one render, both renditions) and still delivers −16 LUFS', async () => {
    const out = await masterAudio(pcmWav(speechLike(3_000, 44_100, 0.3), 44_100));
    const lines = runs();
    expect(renders(lines)).toHaveLength(1);
    expect(lines).toHaveLength(3);
    const [mp3, wav] = out.renditions;
    for (const [rendition, pcm] of [
      [mp3!, await decodeMp3(mp3!.bytes)],
      [wav!, decodeWav(wav!.bytes)],
    ] as const) {
      const measured = expectBroadcastReady(pcm);
      expect(Math.abs(rendition.loudnessLufs - -16)).toBeLessThanOrEqual(0.3 + 1e-9);
      expect(Math.abs(rendition.loudnessLufs - measured.lufs)).toBeLessThan(0.5);
    }
  });

  it('steps the gain by the loudness the last two renders gained per dB, within 0.2–1', () => {
    expect(loudnessPerDb({ gainDb: 5, level: -17 }, { gainDb: 6, level: -16.5 })).toBeCloseTo(0.5);
    expect(loudnessPerDb({ gainDb: 5, level: -17 }, { gainDb: 6, level: -15.5 })).toBe(1);
    expect(loudnessPerDb({ gainDb: 5, level: -17 }, { gainDb: 6, level: -17 })).toBe(0.2);
    expect(loudnessPerDb({ gainDb: 5, level: -17 }, { gainDb: 5.01, level: -16.9 })).toBe(1);
  });

  it('reaches ±0.3 LU in at most three renders for a voice whose peaks the limiter holds back', async () => {
    // The local engine's deep voice peaks at full scale: near −16 LUFS each dB of gain adds ~0.5 LU.
    // Stepping 1 LU per dB took all four renders and left the MP3 at −16.5.
    const voice = await localProvider().synthesize({ text: adScript(200), voice: 'deep' });
    const out = await masterAudio(voice.audio);
    expect(renders(runs()).length).toBeLessThanOrEqual(3);
    for (const r of out.renditions) expect(nearTarget(r.loudnessLufs), `${r.format} at ${r.loudnessLufs} LUFS`).toBe(true);
  });

  it('measures a clip shorter than a block looped at once, the input and every render', async () => {
    const out = await masterAudio(pcmWav(tone(0.25, 8_000, 0.25), 8_000));
    const lines = runs();
    const measurements = lines.filter((line) => line.includes('ebur128'));
    // One for the input, one per render for both renditions: none plain first.
    expect(measurements).toHaveLength(1 + renders(lines).length);
    for (const line of measurements) expect(line).toMatch(/^(-stream_loop 3 -i \S+ )+-filter_complex /);
    expect(Math.abs(out.durationMs - 250)).toBeLessThan(5);
    for (const rendition of out.renditions) expect(Math.abs(rendition.loudnessLufs - -16)).toBeLessThanOrEqual(1);
  });
});
