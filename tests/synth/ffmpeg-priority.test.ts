import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegBinary, runFfmpeg } from '@/server/synth/ffmpeg';

/**
 * Mastering is background work: ffmpeg runs below the service's CPU priority, so that requests on
 * the same cores do not wait while it encodes (server/synth/ffmpeg.ts). A wrapper reports the nice
 * value it runs at (read after a moment: the priority is lowered just after the start), then runs
 * the real ffmpeg.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'ffmpeg-priority-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ffmpeg runs', () => {
  it('run 10 nice levels below the service', async () => {
    const real = (await ffmpegBinary({ ...process.env })).path;
    const niceFile = path.join(dir, 'nice');
    const wrapper = path.join(dir, 'ffmpeg');
    writeFileSync(wrapper, `#!/bin/sh\nsleep 0.3\nps -o ni= -p $$ > '${niceFile}'\nexec '${real}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    await runFfmpeg(wrapper, ['-version']);
    expect(Number(readFileSync(niceFile, 'utf8').trim())).toBe(Math.min(19, getPriority() + 10));
  });
});
