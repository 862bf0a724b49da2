import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegBinary } from '@/server/synth/ffmpeg';
import { masterAudio } from '@/server/synth/master';
import { SynthesisError } from '@/server/synth/types';
import { createTestDatabase } from '@/tests/support/database';
import { decodeMp3, decodeWav, expectBroadcastReady } from '@/tests/support/loudness';
import { startServerProcess } from '@/tests/support/server-process';
import { pcmWav, speechLike } from '@/tests/support/signals';

const dir = mkdtempSync(path.join(tmpdir(), 'mastering-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finding ffmpeg', () => {
  it('falls back to the binary the npm package ships, so a fresh `npm install` needs nothing else', async () => {
    const found = await ffmpegBinary({ PATH: dir });
    expect(found.source).toBe('@ffmpeg-installer/ffmpeg');
    expect(found.path).toContain(`node_modules${path.sep}@ffmpeg-installer`);
  });

  it('refuses a binary that does not run, or lacks what mastering needs, saying what to install', async () => {
    await expect(ffmpegBinary({ FFMPEG_PATH: path.join(dir, 'nope') })).rejects.toThrow(
      /does not run.*Debian package "ffmpeg" \(apt-get install ffmpeg\)/,
    );
    const fake = path.join(dir, 'ffmpeg-without-lame');
    writeFileSync(fake, '#!/bin/sh\necho "ffmpeg version 0.0-fake"\n');
    chmodSync(fake, 0o755);
    await expect(ffmpegBinary({ FFMPEG_PATH: fake })).rejects.toThrow(/lacks .*ebur128.*libmp3lame.*apt-get install ffmpeg/);
  });

  it('`npm start` stops at once, naming the package, when ffmpeg is missing', async () => {
    const db = await createTestDatabase('no-ffmpeg');
    try {
      const started = startServerProcess({ DATABASE_URL: db.url, FFMPEG_PATH: path.join(dir, 'missing-ffmpeg') });
      await expect(started).rejects.toThrow(
        /exited with 1 before it was ready[\s\S]*Failed to start: ffmpeg at .*missing-ffmpeg \(FFMPEG_PATH\) does not run.*apt-get install ffmpeg/,
      );
    } finally {
      await db.drop();
    }
  }, 200_000);
});

describe('mastering', () => {
  it('takes stereo 48 kHz input too: mono 44.1 kHz out, at −16 LUFS', async () => {
    const stereo = pcmWav(speechLike(3_000, 48_000, 0.2), 48_000, 2);
    const out = await masterAudio(stereo);
    expect(out).toMatchObject({ sampleRate: 44_100, channels: 1 });
    expect(Math.abs(out.durationMs - 3_000)).toBeLessThan(30);
    const [mp3, wav] = out.renditions;
    expectBroadcastReady(await decodeMp3(mp3!.bytes));
    expectBroadcastReady(decodeWav(wav!.bytes));
  });

  it('refuses silence and what is not audio, permanently (retrying cannot help)', async () => {
    for (const [input, code] of [
      [pcmWav(new Float32Array(44_100), 44_100), 'silent_audio'],
      [Buffer.from('<html>not audio</html>'), 'invalid_audio'],
    ] as const) {
      const err = await masterAudio(input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SynthesisError);
      expect(err).toMatchObject({ code, retryable: false });
    }
  });

  it('is cancelled by an aborted signal, as a stopping worker asks', async () => {
    const err = await masterAudio(pcmWav(speechLike(2_000, 44_100, 0.5), 44_100), { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'cancelled', retryable: true });
  });
});
